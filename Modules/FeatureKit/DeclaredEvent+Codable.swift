import BlocCore
import WireJSON

/// `Codable` for every ``DeclaredEvent``, from its declaration: no second description of the
/// JSON form.
extension DeclaredEvent {
  public init(from decoder: any Decoder) throws {
    let declaration = Self.declaration
    let types = declaration.types.joined(separator: ", ")
    guard let object = try? decoder.container(keyedBy: FieldKey.self) else {
      throw EventRefusal(
        .invalidField,
        "a \(declaration.feature) event must be a JSON object with a \"type\" (one of \(types))")
    }
    guard object.contains(.type) else {
      throw EventRefusal(.missingField, "missing field 'event.type' (one of: \(types))")
    }
    guard case .string(let type) = FieldInput(object, .type) else {
      throw EventRefusal(
        .invalidField,
        "field 'event.type' must be a string (one of: \(types)), got "
          + FieldInput(object, .type).sketch)
    }
    self = try declaration.decode(type: type, names: object.allKeys.map(\.stringValue)) { name in
      let key = FieldKey(name)
      return object.contains(key) ? FieldInput(object, key) : nil
    }
  }

  public func encode(to encoder: any Encoder) throws {
    let declaration = Self.declaration
    guard let index = declaration.caseIndex(of: self) else {
      throw EncodingError.invalidValue(
        self,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "no declared event is named like the case '\(EventDeclaration.caseName(self))'"))
    }
    var object = encoder.container(keyedBy: FieldKey.self)
    do {
      try declaration.cases[index].encode(self, to: &object)
    } catch let mismatch as PayloadMismatch {
      throw EncodingError.invalidValue(
        self, .init(codingPath: encoder.codingPath, debugDescription: mismatch.description))
    }
  }

  /// Writes the event as a client sends it, members sorted: `{"type":"set","value":5}`; what
  /// `monitor` shows and the journal stores with each change (``EventDeclaration/write(_:to:)``).
  /// Inlinable, so that each event type's conformance reads its declaration where the type is
  /// known (unspecialised, reading it would look up the declaration's generic metadata).
  @inlinable
  public func write(to json: inout JSONWriter) throws {
    try writeJSON(into: &json.bytes)
  }

  /// What a persisted bloc stores with a change the event made: the same bytes, appended
  /// (``EventDeclaration/write(at:into:)``).
  @inlinable
  public func writeJSON(into bytes: inout [UInt8]) throws {
    try withUnsafePointer(to: self) { event in
      try Self.declaration.write(at: event, into: &bytes)
    }
  }
}

extension FieldInput {
  /// The member `key` of a decoding container, one level deep.
  init(_ object: KeyedDecodingContainer<FieldKey>, _ key: FieldKey) {
    if (try? object.decodeNil(forKey: key)) == true {
      self = .null
    } else if let flag = try? object.decode(Bool.self, forKey: key) {
      self = .bool(flag)
    } else if let integer = try? object.decode(Int64.self, forKey: key) {
      self = .integer(integer)
    } else if let number = try? object.decode(Double.self, forKey: key) {
      self = .number(number)
    } else if let text = try? object.decode(String.self, forKey: key) {
      self = .string(text)
    } else if let array = try? object.nestedUnkeyedContainer(forKey: key) {
      self = .array(count: array.count ?? 0)
    } else {
      self = .object(count: 0)
    }
  }
}

/// The coding key of one member of a JSON object, by name.
public struct FieldKey: CodingKey, Hashable, Sendable {
  public let stringValue: String
  public var intValue: Int? { nil }

  public init(_ name: String) { stringValue = name }
  public init?(stringValue: String) { self.init(stringValue) }
  public init?(intValue: Int) { nil }

  /// The discriminator every event carries.
  public static let type = FieldKey("type")
}
