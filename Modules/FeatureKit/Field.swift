import WireJSON

/// One field of an event, declared once: its name, JSON type, constraints, summary and an
/// example. Decoding, validation, the `describe` schema and messages all come from it.
///
/// ```swift
/// Field.integer("value", "The new count.", example: 5)
/// Field.string("term", "Free text.", example: "maps")
/// Field.oneOf("key", "The setting.", SettingKey.self)
/// Field.optional(.integer("by", "How much to add.", minimum: 1, example: 2))
/// ```
public struct Field<Value: Sendable & Encodable>: Sendable {
  /// The field as `describe` shows it.
  public let shape: FieldShape
  /// Reads a present, non-null value (`path` is the field's place in messages, `event.value`).
  let read: @Sendable (FieldInput, _ path: String) throws(EventRefusal) -> Value
  /// The value when the field is absent (or null, unless ``readsNull``); nil when required.
  let absent: Value?
  /// Whether `read` gets a null (else null counts as absent).
  let readsNull: Bool
  /// Writes a value as the event's JSON carries it (`monitor`, the journal's record).
  /// By default the value's own ``JSONWritable`` writing, found once for the type.
  var write: @Sendable (Value, inout JSONWriter) throws -> Void
  /// The same writing in code that is not generic, for a value of a type written there (an
  /// integer, a boolean, a string, an enum of strings, an optional of one); nil otherwise.
  var writing: EventValueWriting?

  /// Whether a value is nil, for a field of an `Optional` type (nil otherwise): the event's
  /// JSON leaves such a field out.
  let isNone: (@Sendable (Value) -> Bool)?

  public var name: String { shape.name }

  /// A field read by `read`. Use it for a type the other constructors do not cover; throw
  /// ``EventRefusal/invalidField(_:_:)`` for a value it refuses.
  ///
  /// - Parameters:
  ///   - absent: the value when the field is absent; nil makes the field required.
  ///   - readsNull: whether `read` gets a JSON null; if false, null counts as absent.
  public init(
    _ shape: FieldShape, absent: Value? = nil, readsNull: Bool = false,
    read: @escaping @Sendable (FieldInput, _ path: String) throws(EventRefusal) -> Value
  ) {
    self.shape = shape
    self.read = read
    self.absent = absent
    self.readsNull = readsNull
    if let optional = Value.self as? any OptionalMarker.Type {
      isNone = Self.noneTest(optional)
    } else {
      isNone = nil
    }
    if let writable = Value.self as? any JSONWritable.Type {
      write = Self.writer(writable)
      writing = EventValueWriting.own(Value.self)
    } else {
      // An existential, say: what each value is decides.
      write = { value, json in
        guard let writable = value as? any JSONWritable else {
          throw JSONWriter.Unwritable(type: String(reflecting: Value.self))
        }
        try writable.write(to: &json)
      }
    }
  }

  /// Writes a value through `Writable`'s conformance: `Writable` is `Value` itself, found by
  /// the cast above, so its memory is read as what it is.
  private static func writer<Writable: JSONWritable>(
    _: Writable.Type
  ) -> @Sendable (Value, inout JSONWriter) throws -> Void {
    { value, json in
      try withUnsafePointer(to: value) { value in
        try UnsafeRawPointer(value).assumingMemoryBound(to: Writable.self).pointee.write(to: &json)
      }
    }
  }

  private static func noneTest<Wrapper: OptionalMarker>(
    _: Wrapper.Type
  ) -> @Sendable (Value) -> Bool {
    { value in withUnsafePointer(to: value) { Wrapper.isNone(at: UnsafeRawPointer($0)) } }
  }

  /// How a value at an address is written in an event's JSON (``FieldsWriter``): ``writing``,
  /// or this field's own writing (``write(_:ifPresentTo:)``) of the value read there.
  var eventWriting: EventValueWriting {
    if let writing { return writing }
    // The field's closures, not the field: reading a captured Field<Value> would look up its
    // generic metadata on every write.
    let (write, isNone) = (write, isNone)
    return .written { value, json in
      let value = value.assumingMemoryBound(to: Value.self).pointee
      if let isNone, isNone(value) { return false }
      try write(value, &json)
      return true
    }
  }

  /// Writes `value` as the event's JSON carries it; false, writing nothing, for an optional
  /// field's nil, which is left out as if absent.
  func write(_ value: Value, ifPresentTo json: inout JSONWriter) throws -> Bool {
    if let isNone, isNone(value) { return false }
    try write(value, &json)
    return true
  }

  /// `value` for an `Encoder`; nil for an optional field's nil, left out as if absent.
  func encodable(_ value: Value) -> (any Encodable)? {
    if let isNone, isNone(value) { return nil }
    return value
  }

  /// Reads the field from an event's fields (`lookup` finds one by name): missing, null,
  /// refused or accepted.
  func value(in lookup: (String) -> FieldInput?, example: String) throws(EventRefusal) -> Value {
    let path = "event.\(name)"
    guard let input = lookup(name), input != .null || readsNull else {
      if let absent { return absent }
      throw EventRefusal(
        .missingField,
        "missing field '\(path)' (\(shape.type)): \(shape.summary) Example: \(example)")
    }
    return try read(input, path)
  }
}

extension Field where Value == Int {
  /// An integer written as digits only, within `minimum…maximum` when given. A number with a
  /// fraction or an exponent (`5.0`, `1e-400`) is refused, so nothing is rounded.
  public static func integer(
    _ name: String, _ summary: String, minimum: Int? = nil, maximum: Int? = nil, example: Int
  ) -> Field {
    let type = FieldType.integer(minimum: minimum.map(Int64.init), maximum: maximum.map(Int64.init))
    var field = Field(FieldShape(name, type, summary, example: String(example))) {
      input, path throws(EventRefusal) in
      try input.integer(at: path, as: type)
    }
    field.write = { value, json in json.integer(Int64(value)) }
    field.writing = .integer
    return field
  }
}

extension Field where Value == Int64 {
  /// A 64-bit integer written as digits only, within `minimum…maximum` when given.
  public static func integer64(
    _ name: String, _ summary: String, minimum: Int64? = nil, maximum: Int64? = nil,
    example: Int64
  ) -> Field {
    let type = FieldType.integer(minimum: minimum, maximum: maximum)
    var field = Field(FieldShape(name, type, summary, example: String(example))) {
      input, path throws(EventRefusal) in
      Int64(try input.integer(at: path, as: type))
    }
    field.write = { value, json in json.integer(value) }
    field.writing = .integer64
    return field
  }
}

extension Field where Value == String {
  /// A string, following `rule` when given.
  public static func string(
    _ name: String, _ summary: String, rule: StringRule? = nil, example: String
  ) -> Field {
    let type = FieldType.string(rule)
    var field = Field(FieldShape(name, type, summary, example: FieldInput.quoted(example))) {
      input, path throws(EventRefusal) in
      guard case .string(let text) = input, rule?.accepts(text) ?? true else {
        throw .mismatch(path, type, input)
      }
      return text
    }
    field.write = { value, json in json.string(value) }
    field.writing = .string
    return field
  }
}

extension Field where Value == Bool {
  public static func boolean(_ name: String, _ summary: String, example: Bool) -> Field {
    var field = Field(FieldShape(name, .boolean, summary, example: String(example))) {
      input, path throws(EventRefusal) in
      guard case .bool(let flag) = input else { throw .mismatch(path, .boolean, input) }
      return flag
    }
    field.write = { value, json in json.bool(value) }
    field.writing = .boolean
    return field
  }
}

extension Field {
  /// A string naming one case of `Value` (an enum of strings); `describe` lists them.
  public static func oneOf(_ name: String, _ summary: String, _ values: Value.Type) -> Field
  where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    let names = Value.allCases.map(\.rawValue)
    let type = FieldType.oneOf(names)
    let example = names.first.map(FieldInput.quoted)
    var field = Field(FieldShape(name, type, summary, example: example)) {
      input, path throws(EventRefusal) in
      guard case .string(let text) = input, let value = Value(rawValue: text) else {
        throw .mismatch(path, type, input)
      }
      return value
    }
    field.write = { value, json in json.string(value.rawValue) }
    field.writing = oneOfWriting(Value.self)
    return field
  }

  /// Each case's quoted raw value by its tag, when the cases' tags can be read.
  private static func oneOfWriting<Named: RawRepresentable & CaseIterable>(
    _: Named.Type
  ) -> EventValueWriting? where Named.RawValue == String {
    guard EnumCases.isReadable(Named.self) else { return nil }
    var names: [[UInt8]] = Array(repeating: [], count: Named.allCases.count)
    for value in Named.allCases {
      let tag = EnumCases.tag(of: value)
      guard tag < names.count, names[tag].isEmpty else { return nil }
      var name = JSONWriter()
      name.string(value.rawValue)
      names[tag] = name.bytes
    }
    return .oneOf(
      metadata: UInt(bitPattern: unsafeBitCast(Named.self, to: UnsafeRawPointer.self)),
      names: names)
  }

  /// The same field, but optional: absent or null reads as nil.
  public static func optional<Wrapped>(_ field: Field<Wrapped>) -> Field
  where Value == Wrapped? {
    let shape = field.shape
    var optional = Field(
      FieldShape(shape.name, shape.type, shape.summary, required: false, example: shape.example),
      absent: .some(nil)
    ) { input, path throws(EventRefusal) in try field.read(input, path) }
    let write = field.write
    optional.write = { value, json in
      if let value { try write(value, &json) } else { json.null() }
    }
    switch field.writing {
    case .integer, .integer64, .boolean, .string, .oneOf:
      if EnumCases.isReadableOptional(Value.self), let wrapped = field.writing {
        optional.writing = .optional(
          metadata: UInt(bitPattern: unsafeBitCast(Value.self, to: UnsafeRawPointer.self)),
          wrapped: wrapped)
      }
    case .optional, .written, nil: break
    }
    return optional
  }
}

extension FieldInput {
  private static let int64Magnitude = 9.223_372_036_854_775_808e18

  /// The integer this input is exactly, within `type`'s bounds (an `.integer` type), or the
  /// refusal naming the field at `path`: a number with a fraction or an exponent is never
  /// rounded to an integer, and one beyond `Int64` is out of range.
  ///
  /// ```swift
  /// try FieldInput.integer(5).integer(at: "event.value", as: .integer())       // 5
  /// try FieldInput.number(0).integer(at: "event.value", as: .integer())        // throws
  /// ```
  public func integer(at path: String, as type: FieldType) throws(EventRefusal) -> Int {
    var minimum: Int64?
    var maximum: Int64?
    if case .integer(let low, let high) = type { (minimum, maximum) = (low, high) }
    let input = self
    let value: Int64
    switch input {
    case .integer(let integer): value = integer
    case .number(let number)
    where number.isFinite && number == number.rounded()
      && abs(number) >= Self.int64Magnitude:
      throw EventRefusal(
        .invalidField,
        "field '\(path)' must be \(type), got a number out of range (integers are "
          + "\(Int64.min)…\(Int64.max))")
    case .number:
      throw EventRefusal(
        .invalidField,
        "field '\(path)' must be \(type) written as digits only (like 5), got a number with a "
          + "fraction or an exponent")
    default:
      throw .mismatch(path, type, input)
    }
    if let minimum, value < minimum { throw .mismatch(path, type, input) }
    if let maximum, value > maximum { throw .mismatch(path, type, input) }
    guard let exact = Int(exactly: value) else { throw .mismatch(path, type, input) }
    return exact
  }
}
