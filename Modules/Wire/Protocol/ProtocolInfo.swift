/// Constants of the wire protocol.
///
/// ```swift
/// Reply.success(id: id, fields: ["daemon": "0.1.0", "protocol": JSON(ProtocolInfo.version)])
/// ```
public enum ProtocolInfo {
  /// The protocol version this module speaks, reported by `ping`. Version 2: `seq` is stored
  /// with the state and continues across restarts (PROTOCOL.md, "Versioning").
  public static let version = 2
}
