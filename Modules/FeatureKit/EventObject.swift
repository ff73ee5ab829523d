import WireJSON

/// The JSON object of an event of one type less its fields' values, written once when the
/// event is declared: members sorted by name, byte by byte, as every object the package writes.
///
/// ```swift
/// EventObject("increment", []).bare   // {"type":"increment"}: the whole event
/// EventObject("set", [value])         // "type":"set" and "value":, type first
/// ```
struct EventObject: Sendable {
  /// `{"type":"…"}`: the whole event when it has no fields.
  let bare: [UInt8]
  /// `"type":"…"` and each field's `"name":`.
  private let typeMember: [UInt8]
  private let keys: [[UInt8]]
  /// The order members are written in; nil stands for `type`.
  private let order: [Int?]

  init(_ type: String, _ fields: [FieldShape]) {
    var member = JSONWriter()
    member.key("type")
    member.string(type)
    typeMember = member.bytes
    bare = [UInt8(ascii: "{")] + typeMember + [UInt8(ascii: "}")]
    keys = fields.map { field in
      var key = JSONWriter()
      key.key(field.name)
      return key.bytes
    }
    let names = [("type", nil)] + fields.enumerated().map { ($0.element.name, Optional($0.offset)) }
    order = names.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map(\.1)
  }

  /// The members in the order they are written: each one's key run (`"type":"…"` for the
  /// type, `"name":` for a field) and, for a field, its index in declaration order.
  var members: [(key: [UInt8], field: Int?)] {
    order.map { index in (index.map { keys[$0] } ?? typeMember, index) }
  }

  /// Writes the object; `field` writes the value of the field at an index (in declaration
  /// order), or returns false, having written nothing, to leave the field out.
  func write(
    to json: inout JSONWriter, _ field: (Int, inout JSONWriter) throws -> Bool
  ) rethrows {
    try json.object(count: order.count) { position, json in
      guard let index = order[position] else {
        json.raw(typeMember)
        return true
      }
      json.raw(keys[index])
      return try field(index, &json)
    }
  }
}
