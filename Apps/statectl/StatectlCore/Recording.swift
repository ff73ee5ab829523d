import Glibc
import Wire

/// A recorded session, the file `statectl monitor --record FILE` writes and `replay` and
/// `export-test` read (PROTOCOL.md, "Recording files"). NDJSON: a header line, then every event
/// push as the daemon sent it.
///
/// ```
/// {"format":"stated-recording","version":1,"protocol":2,"recorded_at":"…","features":[{"name":"counter","describe":{…},"state":{"count":3},"seq":12}]}
/// {"push":"event","feature":"counter","cause":"event","event":{"type":"increment"},"outcome":"handled","seq":13,"time":"…","before":{"count":3},"after":{"count":4}}
/// ```
struct Recording: Equatable {
  static let format = "stated-recording"
  static let version = 1

  /// A recorded feature as it was when the recording started.
  struct Feature: Equatable {
    var name: String
    /// The `describe` reply, without `id` and `ok`.
    var describe: JSONObject
    var state: JSON
    var seq: UInt64
  }

  /// One push of the session, with its line number in the file (for messages).
  struct Entry: Equatable {
    var line: Int
    var push: JSONObject

    var feature: String { push["feature"]?.stringValue ?? "" }
    /// `event` when the push has no cause (a protocol 1 daemon's pushes are all events).
    var cause: String { push["cause"]?.stringValue ?? "event" }
    var outcome: String { push["outcome"]?.stringValue ?? "" }
    var seq: UInt64? { push["seq"]?.int64Value.flatMap { $0 >= 0 ? UInt64($0) : nil } }
    var before: JSON? { push["before"] }
    var after: JSON? { push["after"] }
  }

  /// The protocol version of the daemon recorded.
  var protocolVersion: Int?
  var recordedAt: String?
  var features: [Feature]
  var entries: [Entry]
  /// Whether an incomplete last line (a recording stopped mid-write) was ignored.
  var ignoredTornLine = false

  init(protocolVersion: Int?, recordedAt: String?, features: [Feature], entries: [Entry] = []) {
    self.protocolVersion = protocolVersion
    self.recordedAt = recordedAt
    self.features = features
    self.entries = entries
  }

  /// What is wrong with a file given as a recording.
  struct Problem: Error, Equatable {
    var message: String
  }

  /// Reads a recording from the bytes of `path`. Refuses, with what was wrong and what is
  /// accepted, a file that is not NDJSON, has no header of this format, or another version.
  init(parsing bytes: [UInt8], path: String) throws(Problem) {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // A file ends with a newline: the piece after the last one is empty, or a torn line.
    let last = lines.removeLast()
    var torn = false
    if !last.isEmpty {
      if case .object? = try? JSONParser().parse(last) {
        lines.append(last)
      } else {
        torn = true
      }
    }
    guard let first = lines.first else {
      throw Problem(
        message:
          "\(path) is empty: not a recording (write one with 'statectl monitor --record FILE')")
    }
    guard case .object(let header)? = try? JSONParser().parse(first) else {
      throw Problem(
        message:
          "\(path) is not a recording: line 1 is not a JSON object (a recording is NDJSON, its first line {\"format\":\"\(Self.format)\",\"version\":\(Self.version),…})"
      )
    }
    guard header["format"]?.stringValue == Self.format else {
      throw Problem(
        message:
          "\(path) is not a recording: line 1 has no \"format\":\"\(Self.format)\" (write one with 'statectl monitor --record FILE')"
      )
    }
    guard header["version"]?.intValue == Self.version else {
      let version = header["version"].map { $0.serializedString() } ?? "none"
      throw Problem(
        message:
          "\(path) is a recording of format version \(version); this statectl reads version \(Self.version)"
      )
    }
    var features: [Feature] = []
    for (index, value) in (header["features"]?.arrayValue ?? []).enumerated() {
      guard let name = value["name"]?.stringValue, let state = value["state"],
        let seq = value["seq"]?.int64Value, seq >= 0
      else {
        throw Problem(
          message:
            "\(path): line 1, features[\(index)] needs \"name\", \"state\" and \"seq\" (a whole number)"
        )
      }
      features.append(
        Feature(
          name: name, describe: value["describe"]?.objectValue ?? [:], state: state,
          seq: UInt64(seq)))
    }
    guard !features.isEmpty else {
      throw Problem(message: "\(path): line 1 lists no \"features\"; nothing was recorded")
    }
    var entries: [Entry] = []
    for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      guard case .object(let push)? = try? JSONParser().parse(line) else {
        throw Problem(
          message:
            "\(path): line \(index + 1) is not a JSON object; a recording is NDJSON, one push per line"
        )
      }
      guard push["push"]?.stringValue == MonitorFormat.pushKind else { continue }
      entries.append(Entry(line: index + 1, push: push))
    }
    self.init(
      protocolVersion: header["protocol"]?.intValue, recordedAt: header["recorded_at"]?.stringValue,
      features: features, entries: entries)
    ignoredTornLine = torn
  }

  /// Reads the recording at `path`.
  init(contentsOf path: String) throws(Problem) {
    let bytes: [UInt8]
    do {
      bytes = try TextFile.read(path)
    } catch {
      throw Problem(message: error.message)
    }
    try self.init(parsing: bytes, path: path)
  }

  /// The header line, without its newline.
  func headerLine() -> String {
    var header: JSONObject = [
      "format": .string(Self.format), "version": JSON(Self.version),
    ]
    if let protocolVersion { header["protocol"] = JSON(protocolVersion) }
    if let recordedAt { header["recorded_at"] = .string(recordedAt) }
    header["features"] = .array(
      features.map { feature in
        [
          "name": .string(feature.name), "describe": .object(feature.describe),
          "state": feature.state, "seq": .integer(Int64(feature.seq)),
        ]
      })
    return JSON.object(header).serializedString()
  }

  /// Whether a push belongs after a feature's starting point (`seq` and its state): a change
  /// it already includes (a seq below, or the same seq with a change) is left out.
  static func follows(_ push: JSONObject, start seq: UInt64) -> Bool {
    let entry = Entry(line: 0, push: push)
    guard let pushed = entry.seq else { return true }
    if pushed != seq { return pushed > seq }
    return entry.before == entry.after
  }

  /// The feature recorded under `name`.
  func feature(named name: String) -> Feature? {
    features.first { $0.name == name }
  }
}

/// Now as RFC 3339 UTC with milliseconds, `2026-12-01T19:20:01.123Z`.
func utcTimestamp() -> String {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  var seconds = now.tv_sec
  var parts = tm()
  gmtime_r(&seconds, &parts)
  func padded(_ value: Int32, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
  return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-"
    + padded(parts.tm_mday, 2) + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2)
    + ":" + padded(parts.tm_sec, 2) + "." + padded(Int32(now.tv_nsec / 1_000_000), 3) + "Z"
}
