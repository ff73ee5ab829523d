/// The members of an event's JSON object other than `"type"`, in their order, one level deep.
///
/// ```swift
/// let fields = EventInput([("value", .integer(5))])
/// try CounterEvent.declaration.decode(type: "set", fields: fields)  // .set(5)
/// ```
public struct EventInput: Sendable, Equatable {
  public let members: [(name: String, value: FieldInput)]

  public init(_ members: [(name: String, value: FieldInput)] = []) { self.members = members }

  public var isEmpty: Bool { members.isEmpty }

  /// The value of the member `name`, or nil when absent.
  public subscript(name: String) -> FieldInput? {
    members.first { $0.name == name }?.value
  }

  public static func == (lhs: EventInput, rhs: EventInput) -> Bool {
    lhs.members.elementsEqual(rhs.members) { $0.name == $1.name && $0.value == $1.value }
  }

}
