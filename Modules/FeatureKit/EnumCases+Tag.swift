/// Which case an enum value is, read the way a `switch` over a type it does not know reads it:
/// with the enum's `getEnumTag` value witness, a function the compiler emits for every enum.
/// No `Mirror`, no string, no allocation: what lets a declared event find its declared case on
/// every change the journal stores.
///
/// ```swift
/// EnumCases.isReadable(CounterEvent.self)   // true
/// EnumCases.tag(of: CounterEvent.set(5))     // 0: payload cases first, as names(of:) lists them
/// EnumCases.tag(of: CounterEvent.increment)  // 1
/// ```
/// The tag indexes the names `names(of:)` reads: the runtime names a case the same way
/// (`Mirror` and `String(describing:)` call `getEnumTag`, then read that field record).
/// Reads the layout the Swift ABI fixes (include/swift/ABI/ValueWitness.def, Metadata.h): the
/// value witness table's address is the word before the metadata; in it, 8 function pointers,
/// size, stride, flags (32 bits) and the extra inhabitant count (32 bits), then `getEnumTag`
/// when the flags say the table has the enum witnesses. The witness is `swiftcall`, which for
/// two pointers in and a 32-bit integer out passes them as the C convention does (the Swift
/// runtime's own Reflection module calls it as `@convention(c)`).
extension EnumCases {
  /// `getEnumTag(value, metadata)`.
  private typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32

  /// Whether `type` is an enum (not `Optional`) whose value witnesses include `getEnumTag`.
  static func isReadable(_ type: Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == 0x201 else { return false }  // MetadataKind::Enum
    return hasEnumWitnesses(metadata)
  }

  /// Whether `type` is an `Optional` whose value witnesses include `getEnumTag` (its tag is 0
  /// for a value, 1 for nil; the value lies where the optional does).
  static func isReadableOptional(_ type: Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == 0x202 else { return false }  // MetadataKind::Optional
    return hasEnumWitnesses(metadata)
  }

  private static func hasEnumWitnesses(_ metadata: UnsafeRawPointer) -> Bool {
    let flags = witnesses(metadata).load(fromByteOffset: flagsOffset, as: UInt32.self)
    return flags & 0x0020_0000 != 0  // ValueWitnessFlags::HasEnumWitnesses
  }

  /// The tag of `value`'s case: its index among the cases, those with a payload first. Only
  /// for a type ``isReadable(_:)`` accepts.
  static func tag<Value>(of value: Value) -> Int {
    let metadata = unsafeBitCast(Value.self, to: UnsafeRawPointer.self)
    return withUnsafePointer(to: value) { tag(at: UnsafeRawPointer($0), metadata: metadata) }
  }

  /// The tag of the value at `address`, of the type whose metadata is `metadata`
  /// (`unsafeBitCast(T.self, to: UnsafeRawPointer.self)`): the same, in code that is not
  /// generic.
  static func tag(at address: UnsafeRawPointer, metadata: UnsafeRawPointer) -> Int {
    let getEnumTag = unsafeBitCast(
      witnesses(metadata).load(fromByteOffset: flagsOffset + 8, as: UnsafeRawPointer.self),
      to: GetEnumTag.self)
    return Int(getEnumTag(address, metadata))
  }

  /// Leaves the payload of the enum value at `address` at its start, in the payload's own
  /// layout, clearing any tag bits stored in it (`destructiveProjectEnumData`, the witness after
  /// `getEnumTag`): the memory then holds a value of the payload's type, no longer the enum's.
  /// Only for a type ``isReadable(_:)`` accepts.
  static func projectPayload<Value>(at address: UnsafeMutablePointer<Value>) {
    projectPayload(
      at: UnsafeMutableRawPointer(address),
      metadata: unsafeBitCast(Value.self, to: UnsafeRawPointer.self))
  }

  /// The same for the value at `address` of the type whose metadata is `metadata`, in code
  /// that is not generic.
  static func projectPayload(at address: UnsafeMutableRawPointer, metadata: UnsafeRawPointer) {
    let project = unsafeBitCast(
      witnesses(metadata).load(fromByteOffset: flagsOffset + 16, as: UnsafeRawPointer.self),
      to: ProjectEnumData.self)
    project(address, metadata)
  }

  /// `destructiveProjectEnumData(value, metadata)`.
  private typealias ProjectEnumData =
    @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) ->
    Void

  /// After the 8 function pointers, the size and the stride.
  private static var flagsOffset: Int { 10 * MemoryLayout<Int>.size }

  private static func witnesses(_ metadata: UnsafeRawPointer) -> UnsafeRawPointer {
    metadata.load(fromByteOffset: -MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
  }
}
