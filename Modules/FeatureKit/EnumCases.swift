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
/// Only used to check declarations, never to handle events. Reads the layout the Swift ABI
/// fixes (TargetEnumMetadata, TargetEnumDescriptor, FieldDescriptor); nil when the type is not
/// an enum or carries no field records (built with reflection metadata stripped).
public enum EnumCases {
  public static func names(of type: Any.Type) -> [String]? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // MetadataKind::Enum; Optional (0x202) is not a declared event.
    guard metadata.load(as: UInt.self) == 0x201 else { return nil }
    guard let descriptor = metadata.load(fromByteOffset: 8, as: UnsafeRawPointer?.self) else {
      return nil
    }
    // TargetTypeContextDescriptor: flags, parent, name, access function, then the fields.
    guard let fields = relative(descriptor, 16) else { return nil }
    let caseCount =
      Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
      + Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
    // FieldDescriptor: mangled type name, superclass, kind, record size, count, then records
    // of flags, mangled type name, field name.
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard count == caseCount, recordSize >= 12 else { return nil }
    var names: [String] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      guard let name = relative(record, 8) else { return nil }
      names.append(String(cString: name.assumingMemoryBound(to: CChar.self)))
    }
    return names
  }

  /// The target of the 32-bit relative pointer at `offset` in `base`, or nil when it is null.
  private static func relative(_ base: UnsafeRawPointer, _ offset: Int) -> UnsafeRawPointer? {
    let distance = base.load(fromByteOffset: offset, as: Int32.self)
    return distance == 0 ? nil : base + offset + Int(distance)
  }
}
