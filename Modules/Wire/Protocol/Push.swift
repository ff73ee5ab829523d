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
    var line: [UInt8] = []
    line.reserveCapacity(128)
    line.append(literal: #"{"push":"state","feature":"#)
    JSONSerializer.writeString(feature, to: &line)
    line.append(literal: #","seq":"#)
    JSONSerializer.writeInteger(Int64(sequence), to: &line)
    line.append(literal: #","state":"#)
    JSONSerializer.write(state, to: &line)
    line.append(.closeBrace)
    line.append(.lineFeed)
    return line
  }
}
