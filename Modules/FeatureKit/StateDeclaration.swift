import BlocCore
import WireJSON

/// A state's fields, declared once: its JSON form (for the wire and for storage) and
/// `describe`'s `state_shape` both come from here.
///
/// ```swift
/// public struct CounterState: DeclaredState {
///   public var count = 0
///   public static let declaration = StateDeclaration(
///     initial: CounterState(),
///     .field("count", \.count, "The count."))
/// }
/// ```
/// Writing a state writes every field (an optional one as `null`, or not at all with
/// ``StateField/optional(_:_:_:type:)``), straight to bytes with WireJSON's ``JSONWriter``, members
/// sorted by their UTF-8 bytes: the one text the journal stores, replies carry and watchers
/// are pushed (`Codable` stays for other uses, with the same text). Decoding starts from
/// `initial` and reads the fields present, so a field added later needs no migration.
public struct StateDeclaration<State: Sendable>: Sendable {
  public let fields: [StateField<State>]
  /// How the fields are written, in order: by name, byte by byte. Of a type that does not
  /// depend on `State`, and stored before `initial`, whose size does: writing a state looks up
  /// no generic metadata, even unspecialised.
  let writer: StateWriter
  public let initial: State

  public init(initial: State, _ fields: StateField<State>...) {
    self.init(initial: initial, fields: fields)
  }

  public init(initial: State, fields: [StateField<State>]) {
    self.initial = initial
    self.fields = fields
    writer = StateWriter(
      fields
        .sorted { $0.shape.name.utf8.lexicographicallyPrecedes($1.shape.name.utf8) }
        .map { ($0.shape.name, $0.stored ?? .written($0.writeValue)) })
  }

  /// The fields as `describe` shows them.
  public var shape: [FieldShape] { fields.map(\.shape) }

  /// Writes `state` as a JSON object: `{"count":3}`.
  public func write(_ state: State, to json: inout JSONWriter) throws {
    try withUnsafePointer(to: state) { state in try write(at: state, into: &json.bytes) }
  }

  /// Appends the JSON object of the state at `state` to `bytes`: what a persisted bloc
  /// stores. It runs no generic code (the declaration's writer is not generic), so it costs
  /// the same called unspecialised.
  public func write(at state: UnsafePointer<State>, into bytes: inout [UInt8]) throws {
    try writer.write(at: UnsafeRawPointer(state), into: &bytes)
  }
}

/// One field of a state: its shape, and how it is written and read.
public struct StateField<State: Sendable>: Sendable {
  public let shape: FieldShape
  /// The stored property the field is, when it is of a type ``StateWriter`` writes itself;
  /// nil otherwise (``writeValue`` writes it).
  let stored: FieldWriting?
  /// Writes the value of the state at an address after its key; false when it is left out
  /// (an optional field's nil).
  let writeValue: @Sendable (UnsafeRawPointer, inout JSONWriter) throws -> Bool
  /// The same value for `Codable` (``DeclaredState``'s `encode(to:)`).
  let write: @Sendable (State, inout KeyedEncodingContainer<FieldKey>) throws -> Void
  let read: @Sendable (inout State, KeyedDecodingContainer<FieldKey>) throws -> Void

  init(
    _ shape: FieldShape, stored: FieldWriting? = nil,
    writeValue: @escaping @Sendable (UnsafeRawPointer, inout JSONWriter) throws -> Bool,
    write: @escaping @Sendable (State, inout KeyedEncodingContainer<FieldKey>) throws -> Void,
    read: @escaping @Sendable (inout State, KeyedDecodingContainer<FieldKey>) throws -> Void
  ) {
    self.shape = shape
    self.stored = stored
    self.writeValue = writeValue
    self.write = write
    self.read = read
  }

  /// A field whose value `value` computes from the state, read by `read` (for rules the
  /// key-path fields do not cover, such as validation while reading).
  ///
  /// ```swift
  /// StateField<SettingsState>(key.shape, value: { $0.value(of: key) }) { state, object in … }
  /// ```
  public init<Value: Encodable & Sendable & JSONWritable>(
    _ shape: FieldShape, value: @escaping @Sendable (State) -> Value,
    read: @escaping @Sendable (inout State, KeyedDecodingContainer<FieldKey>) throws -> Void
  ) {
    let key = FieldKey(shape.name)
    self.init(
      shape,
      writeValue: { state, json in
        try value(state.assumingMemoryBound(to: State.self).pointee).write(to: &json)
        return true
      },
      write: { state, object in try object.encode(value(state), forKey: key) }, read: read)
  }

  /// The property at `keyPath`, under `name`; its type in `describe` is `type`, or the
  /// value's own (``DescribedValue``).
  public static func field<Value: Codable & Sendable & JSONWritable>(
    _ name: String, _ keyPath: WritableKeyPath<State, Value> & Sendable, _ summary: String,
    type: FieldType
  ) -> StateField {
    let key = FieldKey(name)
    let value = property(keyPath)
    return StateField(
      FieldShape(name, type, summary, required: !(Value.self is any OptionalMarker.Type)),
      stored: .stored(Value.self, at: MemoryLayout<State>.offset(of: keyPath)),
      writeValue: { state, json in
        try value(state).write(to: &json)
        return true
      },
      write: { state, object in try object.encode(state[keyPath: keyPath], forKey: key) },
      read: { state, object in
        guard object.contains(key) else { return }
        state[keyPath: keyPath] = try object.decode(Value.self, forKey: key)
      })
  }

  public static func field<Value: Codable & Sendable & JSONWritable & DescribedValue>(
    _ name: String, _ keyPath: WritableKeyPath<State, Value> & Sendable, _ summary: String
  ) -> StateField {
    field(name, keyPath, summary, type: Value.fieldType)
  }

  /// An optional property, left out of the JSON when nil.
  public static func optional<Value: Codable & Sendable & JSONWritable>(
    _ name: String, _ keyPath: WritableKeyPath<State, Value?> & Sendable, _ summary: String,
    type: FieldType
  ) -> StateField {
    let key = FieldKey(name)
    let value = property(keyPath)
    return StateField(
      FieldShape(name, type, summary, required: false),
      stored: .storedOptional(Value.self, at: MemoryLayout<State>.offset(of: keyPath)),
      writeValue: { state, json in
        guard let value = value(state) else { return false }
        try value.write(to: &json)
        return true
      },
      write: { state, object in try object.encodeIfPresent(state[keyPath: keyPath], forKey: key) },
      read: { state, object in
        state[keyPath: keyPath] = try object.decodeIfPresent(Value.self, forKey: key)
      })
  }
}

extension StateField {
  /// Reads the property at `keyPath` of the state at an address: at its offset when it is a
  /// stored property (`MemoryLayout.offset(of:)`), without projecting the key path (a generic
  /// metadata lookup each time); through the key path otherwise (a computed property).
  fileprivate static func property<Value>(
    _ keyPath: KeyPath<State, Value> & Sendable
  ) -> @Sendable (UnsafeRawPointer) -> Value {
    guard let offset = MemoryLayout<State>.offset(of: keyPath) else {
      return { state in state.assumingMemoryBound(to: State.self).pointee[keyPath: keyPath] }
    }
    return { state in state.load(fromByteOffset: offset, as: Value.self) }
  }
}

/// A state (or a value inside one) whose JSON form and shape come from one ``declaration``.
/// It writes itself to bytes (``JSONWritable``, and for storage BlocCore's ``WritesJSON``);
/// `Codable` comes with it, with the same text.
public protocol DeclaredState: Codable, Sendable, Equatable, JSONWritable, WritesJSON {
  static var declaration: StateDeclaration<Self> { get }
}

extension DeclaredState {
  /// Writes the state (``StateDeclaration/write(_:to:)``). Inlinable, so that each state type's
  /// conformance reads its declaration where the type is known (unspecialised, reading it would
  /// look up the declaration's generic metadata at run time).
  @inlinable
  public func write(to json: inout JSONWriter) throws {
    try writeJSON(into: &json.bytes)
  }

  /// What a persisted bloc stores: the same bytes, appended
  /// (``StateDeclaration/write(at:into:)``).
  @inlinable
  public func writeJSON(into bytes: inout [UInt8]) throws {
    try withUnsafePointer(to: self) { state in
      try Self.declaration.write(at: state, into: &bytes)
    }
  }

  public init(from decoder: any Decoder) throws {
    let object = try decoder.container(keyedBy: FieldKey.self)
    let declaration = Self.declaration
    var state = declaration.initial
    for field in declaration.fields { try field.read(&state, object) }
    self = state
  }

  public func encode(to encoder: any Encoder) throws {
    var object = encoder.container(keyedBy: FieldKey.self)
    for field in Self.declaration.fields { try field.write(self, &object) }
  }

  /// The fields as `describe` shows them.
  public static var shape: [FieldShape] { declaration.shape }
}

/// A value type whose `describe` type is known without being spelled out.
public protocol DescribedValue {
  static var fieldType: FieldType { get }
}

extension Int: DescribedValue { public static var fieldType: FieldType { .integer() } }
extension Int64: DescribedValue { public static var fieldType: FieldType { .integer() } }
extension String: DescribedValue { public static var fieldType: FieldType { .string() } }
extension Bool: DescribedValue { public static var fieldType: FieldType { .boolean } }
extension Double: DescribedValue { public static var fieldType: FieldType { .number } }
extension Array: DescribedValue where Element: DescribedValue {
  public static var fieldType: FieldType { .array(Element.fieldType) }
}
extension Optional: DescribedValue where Wrapped: DescribedValue {
  public static var fieldType: FieldType { Wrapped.fieldType }
}

/// An `Optional`, whatever it wraps: lets a field tell that its value is optional (and so not
/// required), and an event's field tell its nil (left out) without `Mirror` or a cast.
protocol OptionalMarker {
  /// Whether the value at `address`, one of this type, is nil.
  static func isNone(at address: UnsafeRawPointer) -> Bool
  /// The wrapped type when this optional takes no more room than it, else nil: nil is then a
  /// bit pattern no value of the wrapped type has (an extra inhabitant), so a value of it,
  /// read as this optional, reads as that value, present.
  static var wrappedOfSameLayout: Any.Type? { get }
}

extension Optional: OptionalMarker {
  static func isNone(at address: UnsafeRawPointer) -> Bool {
    address.assumingMemoryBound(to: Self.self).pointee == nil
  }

  static var wrappedOfSameLayout: Any.Type? {
    MemoryLayout<Self>.size == MemoryLayout<Wrapped>.size ? Wrapped.self : nil
  }
}

/// WireJSON's writer and the protocol of values that write themselves, under FeatureKit's name,
/// so a feature's own value types conform with `import FeatureKit` alone:
///
/// ```swift
/// extension Backend: JSONWritable {}  // an enum of strings writes its raw value
/// ```
public typealias JSONWritable = WireJSON.JSONWritable
public typealias JSONWriter = WireJSON.JSONWriter
