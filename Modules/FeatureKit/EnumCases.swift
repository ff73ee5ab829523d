/// The case names of an enum type (those with a payload first, then the others, each in
/// declaration order, as the compiler lays them out), read from the reflection metadata the
/// compiler emits for every type (the same records `Mirror` reads a value's case name from).
/// Swift has no public API that lists the cases of an enum with payloads; this is what lets a
/// conformance check find a case that has no declared event.
///
/// ```swift
/// EnumCases.names(of: CounterEvent.self)  // ["set", "increment", "decrement", "reset"]
/// EnumCases.names(of: Int.self)           // nil: not an enum
/// ```
/// Names and payload types are read when a declaration is made or checked, never per event;
/// a value's case is read per event by `tag(of:)` (EnumCases+Tag.swift). Reads the layout
/// the Swift ABI fixes (TargetEnumMetadata, TargetEnumDescriptor, FieldDescriptor); nil when
/// the type is not an enum or carries no field records (built with reflection metadata
/// stripped).
public enum EnumCases {
  public static func names(of type: Any.Type) -> [String]? {
    guard let fields = FieldRecords(type) else { return nil }
    var names: [String] = []
    for index in 0..<fields.count {
      guard let name = relative(fields.record(index), 8) else { return nil }
      names.append(String(cString: name.assumingMemoryBound(to: CChar.self)))
    }
    return names
  }

  /// The tag of the case `name` of the enum `type` (its index in ``names(of:)``) and the type
  /// of the values it carries (a tuple for several), resolved from the case's mangled type name
  /// as `Mirror` resolves it. Nil when `type` has no such case, when the case carries nothing or
  /// is `indirect` (its payload is boxed), or when `type` is generic (its payload's type
  /// depends on its arguments).
  static func payload(ofCase name: String, in type: Any.Type) -> (tag: Int, type: Any.Type)? {
    guard let fields = FieldRecords(type), !fields.isGeneric else { return nil }
    for index in 0..<fields.count {
      let record = fields.record(index)
      guard let caseName = relative(record, 8),
        String(cString: caseName.assumingMemoryBound(to: CChar.self)) == name
      else { continue }
      // FieldRecordFlags::IsIndirectCase
      guard record.load(as: UInt32.self) & 1 == 0, let mangled = relative(record, 4) else {
        return nil
      }
      let bytes = mangled.assumingMemoryBound(to: UInt8.self)
      guard
        let payload = _getTypeByMangledNameInContext(
          bytes, UInt(mangledLength(bytes)), genericContext: fields.descriptor,
          genericArguments: nil)
      else { return nil }
      return (index, payload)
    }
    return nil
  }

  /// The length of a mangled name: up to its terminating 0, stepping over the symbolic
  /// references it embeds (a byte 1…0x17 and a 32-bit relative address, or 0x18…0x1F and an
  /// absolute one), which may hold zeros.
  private static func mangledLength(_ name: UnsafePointer<UInt8>) -> Int {
    var length = 0
    while name[length] != 0 {
      switch name[length] {
      case 0x01...0x17: length += 1 + 4
      case 0x18...0x1F: length += 1 + MemoryLayout<Int>.size
      default: length += 1
      }
    }
    return length
  }

  /// The field records of an enum type: one per case, in tag order.
  private struct FieldRecords {
    let descriptor: UnsafeRawPointer
    let first: UnsafeRawPointer
    let recordSize: Int
    let count: Int
    /// Whether the type has generic parameters (TypeContextDescriptorFlags' generic bit).
    let isGeneric: Bool

    init?(_ type: Any.Type) {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      // MetadataKind::Enum; Optional (0x202) is not a declared event.
      guard metadata.load(as: UInt.self) == 0x201 else { return nil }
      guard
        let descriptor = metadata.load(
          fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer?.self)
      else { return nil }
      // TargetTypeContextDescriptor: flags, parent, name, access function, then the fields.
      guard let fields = EnumCases.relative(descriptor, 16) else { return nil }
      let caseCount =
        Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
        + Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
      // FieldDescriptor: mangled type name, superclass, kind, record size, count, then records
      // of flags, mangled type name, field name.
      recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
      count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
      guard count == caseCount, recordSize >= 12 else { return nil }
      self.descriptor = descriptor
      first = fields + 16
      isGeneric = descriptor.load(as: UInt32.self) & 0x80 != 0
    }

    func record(_ index: Int) -> UnsafeRawPointer { first + index * recordSize }
  }

  /// The target of the 32-bit relative pointer at `offset` in `base`, or nil when it is null.
  private static func relative(_ base: UnsafeRawPointer, _ offset: Int) -> UnsafeRawPointer? {
    let distance = base.load(fromByteOffset: offset, as: Int32.self)
    return distance == 0 ? nil : base + offset + Int(distance)
  }
}
