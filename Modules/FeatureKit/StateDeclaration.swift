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
/// Encoding writes every field (an optional one as `null`, or not at all with
/// ``StateField/optional(_:_:_:type:)``); decoding starts from `initial` and reads the fields
/// present, so a field added later needs no migration.
public struct StateDeclaration<State: Sendable>: Sendable {
  public let initial: State
  public let fields: [StateField<State>]

  public init(initial: State, _ fields: StateField<State>...) {
    self.init(initial: initial, fields: fields)
  }

  public init(initial: State, fields: [StateField<State>]) {
    self.initial = initial
    self.fields = fields
  }

  /// The fields as `describe` shows them.
  public var shape: [FieldShape] { fields.map(\.shape) }
}

/// One field of a state: its shape, and how it is written and read.
public struct StateField<State: Sendable>: Sendable {
  public let shape: FieldShape
  let write: @Sendable (State, inout KeyedEncodingContainer<FieldKey>) throws -> Void
  let read: @Sendable (inout State, KeyedDecodingContainer<FieldKey>) throws -> Void

  /// A field written and read by the given closures (for rules the key-path fields do not
  /// cover, such as validation while reading).
  public init(
    _ shape: FieldShape,
    write: @escaping @Sendable (State, inout KeyedEncodingContainer<FieldKey>) throws -> Void,
    read: @escaping @Sendable (inout State, KeyedDecodingContainer<FieldKey>) throws -> Void
  ) {
    self.shape = shape
    self.write = write
    self.read = read
  }

  /// The property at `keyPath`, under `name`; its type in `describe` is `type`, or the
  /// value's own (``DescribedValue``).
  public static func field<Value: Codable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<State, Value> & Sendable, _ summary: String,
    type: FieldType
  ) -> StateField {
    let key = FieldKey(name)
    return StateField(
      FieldShape(name, type, summary, required: !(Value.self is any OptionalMarker.Type)),
      write: { state, object in try object.encode(state[keyPath: keyPath], forKey: key) },
      read: { state, object in
        guard object.contains(key) else { return }
        state[keyPath: keyPath] = try object.decode(Value.self, forKey: key)
      })
  }

  public static func field<Value: Codable & Sendable & DescribedValue>(
    _ name: String, _ keyPath: WritableKeyPath<State, Value> & Sendable, _ summary: String
  ) -> StateField {
    field(name, keyPath, summary, type: Value.fieldType)
  }

  /// An optional property, left out of the JSON when nil.
  public static func optional<Value: Codable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<State, Value?> & Sendable, _ summary: String,
    type: FieldType
  ) -> StateField {
    let key = FieldKey(name)
    return StateField(
      FieldShape(name, type, summary, required: false),
      write: { state, object in try object.encodeIfPresent(state[keyPath: keyPath], forKey: key) },
      read: { state, object in
        state[keyPath: keyPath] = try object.decodeIfPresent(Value.self, forKey: key)
      })
  }
}

/// A state (or a value inside one) whose JSON form and shape come from one ``declaration``.
/// `Codable` comes with it.
public protocol DeclaredState: Codable, Sendable, Equatable {
  static var declaration: StateDeclaration<Self> { get }
}

extension DeclaredState {
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

/// Lets a field tell that its value is optional (and so not required).
protocol OptionalMarker {}
extension Optional: OptionalMarker {}
