import Foundation
import Testing
import Wire

/// What the features' declarations promise, checked against a real `stated`: unknown fields,
/// exact integers, field errors, search ids and marks, failed searches.
@Suite("feature contract against a real daemon")
struct FeatureContractTests {
  static func send(_ feature: String, _ event: String) -> String {
    #"{"op":"send","feature":"\#(feature)","event":\#(event)}"#
  }

  /// Issue 12.3: a stray field is refused whatever the type of the other fields.
  @Test func unknownEventFieldsAreRefusedInEveryCase() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    for event in [
      #"{"type":"set","key":"searchBackend","value":"packages","zzUnknownField":1}"#,
      #"{"type":"set","key":"searchLimit","value":30,"zzUnknownField":1}"#,
      #"{"type":"set","key":"counterMaximum","value":null,"zzUnknownField":1}"#,
      #"{"type":"resetAll","zzUnknownField":1}"#,
    ] {
      let reply = try await client.call(Self.send("settings", event))
      #expect(reply.errorCode == "invalid_field", "\(event)")
      #expect(reply.errorMessage.contains("has no field 'zzUnknownField'"), "\(reply)")
    }
    let settings = try await client.call(#"{"op":"get","feature":"settings"}"#)
    #expect(settings.int("seq") == 0, "nothing was handled")
  }

  /// Issue 10.2: integers are exact or refused; messages quote little of the input.
  @Test func integersAreExactOrRefused() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    _ = try await client.call(Self.send("counter", #"{"type":"set","value":7}"#))
    let manyZeros = "0." + String(repeating: "0", count: 500) + "1"
    for (value, hint) in [
      ("1e-400", "written as digits only"), (manyZeros, "written as digits only"),
      ("5.0", "written as digits only"), ("1E2", "written as digits only"),
      ("9223372036854775808", "out of range"), ("-9223372036854775809", "out of range"),
      ("1e300", "out of range"),
    ] {
      let reply = try await client.call(Self.send("counter", #"{"type":"set","value":\#(value)}"#))
      #expect(reply.errorCode == "invalid_field", "\(value.prefix(20))")
      #expect(reply.errorMessage.contains(hint), "\(reply.errorMessage)")
      #expect(reply.errorMessage.utf8.count < 200, "\(reply.errorMessage)")
    }
    // A number too large for any double is refused by the parser, quoting only its start.
    let digits = String(repeating: "9", count: 100_000)
    let tooLarge = try await client.call(
      Self.send("counter", #"{"type":"set","value":\#(digits)}"#))
    #expect(tooLarge.errorCode == "parse_error")
    #expect(tooLarge.errorMessage.utf8.count < 200, "\(tooLarge.errorMessage.prefix(300))")
    // Names are quoted short too, whatever field they are in.
    let name = String(repeating: "n", count: 10_000)
    for line in [
      #"{"op":"\#(name)"}"#, #"{"op":"get","feature":"\#(name)"}"#,
      Self.send("counter", #"{"type":"\#(name)"}"#),
      Self.send("counter", #"{"type":"set","\#(name)":1}"#),
    ] {
      let reply = try await client.call(line)
      #expect(reply["ok"] == false)
      #expect(reply.errorMessage.utf8.count < 300, "\(reply.errorMessage.prefix(100))")
    }
    let huge = String(repeating: "x", count: 100_000)
    let long = try await client.call(Self.send("counter", #"{"type":"set","value":"\#(huge)"}"#))
    #expect(long.errorCode == "invalid_field")
    #expect(long.errorMessage.utf8.count < 200)
    let limit = try await client.call(
      Self.send("settings", #"{"type":"set","key":"searchLimit","value":1e-400}"#))
    #expect(limit.errorCode == "invalid_field")
    #expect(try await client.call(#"{"op":"get","feature":"counter"}"#)["state"] == ["count": 7])
  }

  /// Issue 9.7: a missing field says its type and an example, for every feature; an unknown
  /// field is reported as unknown.
  @Test func fieldErrorsSayTypeAndExample() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    let features = try await client.call(#"{"op":"features"}"#)
    let names = features["features"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    #expect(!names.isEmpty)
    // Every required field of every event of every feature, from `describe`.
    for name in names {
      let described = try await client.call(#"{"op":"describe","feature":"\#(name)"}"#)
      for event in described["events"]?.arrayValue ?? [] {
        guard let type = event["type"]?.stringValue,
          let first = event["fields"]?.arrayValue?.first(where: { $0["required"] == true }),
          let field = first["name"]?.stringValue
        else { continue }
        let reply = try await client.call(Self.send(name, #"{"type":"\#(type)"}"#))
        #expect(reply.errorCode == "missing_field", "\(name) \(type)")
        #expect(reply.errorMessage.contains("'event.\(field)' ("), "\(reply.errorMessage)")
        #expect(reply.errorMessage.contains("Example: {"), "\(reply.errorMessage)")
      }
    }
    let value = try await client.call(
      Self.send("settings", #"{"type":"set","key":"searchLimit"}"#))
    #expect(value.errorCode == "missing_field")
    #expect(
      value.errorMessage
        == #"missing field 'event.value' (integer 1…200 for searchLimit): The most results a search returns. Example: {"type":"set","key":"searchLimit","value":50}"#
    )
    let misspelt = try await client.call(
      Self.send("settings", #"{"type":"set","kee":"searchLimit","value":5}"#))
    #expect(misspelt.errorCode == "invalid_field")
    #expect(misspelt.errorMessage.contains("has no field 'kee'"))
  }

  /// Issue 10.3: ids are exact for every JSON client, an unknown id is refused, marks keep
  /// their name and backend, one event clears them.
  @Test func searchIdsAndMarks() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    let unknown = try await client.call(Self.send("search", #"{"type":"toggleMark","id":42}"#))
    #expect(unknown.errorCode == "event_failed")
    #expect(unknown.errorMessage.contains("no app with id 42"))
    #expect(unknown["state"]?["marks"] == [])
    let rounded = try await client.call(
      Self.send("search", #"{"type":"toggleMark","id":9007199254740993}"#))
    #expect(rounded.errorCode == "invalid_field")

    let found = try await client.call(Self.send("search", #"{"type":"search","term":"bash"}"#))
    let results = found["state"]?["results"]?.arrayValue ?? []
    #expect(!results.isEmpty, "the machine's package catalog has bash")
    #expect(results.allSatisfy { ($0["id"]?.int64Value ?? 0) <= 9_007_199_254_740_991 })
    let id = try #require(results.first?["id"]?.int64Value)
    let marked = try await client.call(
      Self.send("search", #"{"type":"toggleMark","id":\#(id)}"#))
    #expect(
      marked["state"]?["marks"] == [["backend": "packages", "id": .integer(id), "name": "bash"]])
    let cleared = try await client.call(Self.send("search", #"{"type":"clearMarks"}"#))
    #expect(cleared["outcome"] == "handled")
    #expect(cleared["state"]?["marks"] == [])
  }

  /// Issue 12.1 with 10.3: a toggleMark pipelined right after a search marks from its results.
  @Test func aMarkPipelinedAfterASearchSeesItsResults() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    let bash = 8_126_059_506_875_743  // the package bash's id, the same on every machine
    try client.write(
      Self.send("search", #"{"type":"search","term":"bash"}"#) + "\n"
        + Self.send("search", #"{"type":"toggleMark","id":\#(bash)}"#) + "\n")
    let searched = try JSON(parsing: try #require(await client.readLine(timeout: .seconds(20))))
    let marked = try JSON(parsing: try #require(await client.readLine(timeout: .seconds(20))))
    #expect(searched["outcome"] == "handled")
    #expect(marked["outcome"] == "handled", "\(marked)")
    #expect(marked["state"]?["marks"]?[0]?["name"] == "bash")
  }

  /// Issue 9.8: a search that fails ends `failed`, and the state shows the failed activity.
  @Test func aFailedSearchEndsFailed() async throws {
    var environment = ProcessInfo.processInfo.environment
    // Nothing listens on port 9 of the loopback: the App Store is unreachable at once.
    environment["STATED_ITUNES_URL"] = "http://127.0.0.1:9/search"
    let daemon = try await DaemonProcess(environment: environment)
    let client = try daemon.client()
    _ = try await client.call(
      Self.send("settings", #"{"type":"set","key":"searchBackend","value":"itunes"}"#))
    let reply = try await client.call(Self.send("search", #"{"type":"search","term":"maps"}"#))
    #expect(reply["ok"] == false)
    #expect(reply.errorCode == "event_failed")
    #expect(reply["outcome"] == "failed")
    #expect(reply["state"]?["activity"]?["status"] == "failed")
    #expect(reply["state"]?["activity"]?["message"] == reply["error"]?["message"])
  }
}
