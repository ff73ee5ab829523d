import Foundation

/// A state (or an event) that writes its own JSON text: compact, one line, members sorted by
/// their UTF-8 bytes, strings with `"`, `\` and control characters escaped (`/` as it is).
/// A persisted bloc stores such a state without any `Encoder`; FeatureKit's declared states and
/// events conform, writing with the daemon's one JSON writer, so a state stored by the journal
/// and sent to clients is written once (the daemon takes the stored bytes for its replies).
public protocol WritesJSON: Sendable {
  /// Appends the value's JSON to `bytes`. Throws for a value JSON cannot express (a
  /// non-finite number); nothing is stored then.
  func writeJSON(into bytes: inout [UInt8]) throws
}

/// A type that writes its own JSON (``WritesJSON``), found once per bloc (its state's, its
/// events'): a value of it is then written where it lies, with no dynamic cast, no copy and no
/// closure per value. The persister's code runs unspecialised; here the type is opened for one
/// generic call whose only step is the value's own `writeJSON`.
struct OwnJSON: Sendable {
  let type: any WritesJSON.Type

  /// `Value`'s, or nil when it does not write its own JSON.
  static func of<Value>(_ type: Value.Type) -> OwnJSON? {
    guard let own = type as? any WritesJSON.Type else { return nil }
    return OwnJSON(type: own)
  }

  /// Writes the value at `value`, which is of ``type``.
  func write(at value: UnsafeRawPointer, into bytes: inout [UInt8]) throws {
    try type.writeJSON(at: value, into: &bytes)
  }

  /// Writes `value` when its type is ``type`` (the two metatypes compared; an instance of a
  /// subclass is not of ``type`` here: the caller writes it the general way); false otherwise.
  func write(_ value: any Sendable, into bytes: inout [UInt8]) throws -> Bool {
    try Self.write(value, as: self, into: &bytes)
  }

  /// `value` opened where the existential holds it: read in place, not copied out.
  private static func write<Value>(
    _ value: Value, as own: OwnJSON, into bytes: inout [UInt8]
  ) throws -> Bool {
    guard Value.self == own.type else { return false }
    try withUnsafePointer(to: value) { try own.write(at: UnsafeRawPointer($0), into: &bytes) }
    return true
  }
}

extension WritesJSON {
  /// Writes the value at `value`, a `Self`, read where it lies (``OwnJSON``).
  fileprivate static func writeJSON(at value: UnsafeRawPointer, into bytes: inout [UInt8]) throws {
    try value.assumingMemoryBound(to: Self.self).pointee.writeJSON(into: &bytes)
  }
}
