/// Builds pushed message lines for watches (`monitor` pushes have kind ``eventKind``). A push has a `"push"` kind and
/// no `"id"` or `"ok"`, which is how clients tell it from a reply.
///
/// ```swift
/// Push.state(feature: "counter", sequence: 7, state: ["count": 3])
/// // {"push":"state","feature":"counter","seq":7,"state":{"count":3}}\n
/// ```
public enum Push {
  /// The kind of a state push (`watch`).
  public static let stateKind = "state"
  /// The kind of an event push (`monitor`).
  public static let eventKind = "event"

  /// `{"push":"state","feature":…,"seq":…,"state":…}\n`
  public static func state(feature: String, sequence: Int, state: JSON) -> [UInt8] {
    var line = JSONWriter(capacity: 128)
    line.ascii(#"{"push":"state","feature":"#)
    line.string(feature)
    line.ascii(#","seq":"#)
    line.integer(Int64(sequence))
    line.ascii(#","state":"#)
    line.json(state)
    line.ascii("}\n")
    return line.bytes
  }
}
