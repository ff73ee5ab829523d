import BlocCore
import Foundation
import Testing

/// What a persisted state looks like in storage: the JSON `JSONEncoder` (sorted keys, slashes
/// as they are) writes, or the state's own (``WritesJSON``), and read back exactly.
@Suite struct StoredRecordTests {
  struct Inner: Codable, Equatable, Sendable {
    var label: String
    var ratio: Float
    var tags: [String]
  }

  enum Mode: String, Codable, Sendable { case fast, careful }

  struct Everything: PersistableState {
    static let schemaVersion = 3
    var name = "a \"quoted\" back\\slash / slash\nnew line\ttab \u{1} é 💡"
    var count = Int.min
    var big = UInt64.max
    var small: Int8 = -128
    var flag = true
    var none: Int? = nil
    var some: Int? = 7
    var fraction = 0.1
    var whole = 5.0
    var huge = 1e300
    var tiny = Double.leastNonzeroMagnitude
    var negativeZero = -0.0
    var mode = Mode.careful
    var inner = Inner(label: "x", ratio: 0.1, tags: ["b", "a", ""])
    var list: [Inner] = []
    var table = ["zeta": 1, "alpha": 2, "mid": 3]
    var nested: [[Int]] = [[1, 2], [], [3]]
  }

  struct Dated: PersistableState {
    var at = Date(timeIntervalSinceReferenceDate: 12.5)
    var blob = Data([1, 2, 3])
    var link = URL(string: "https://example.com/a?b=c")!
  }

  /// The bytes stored for `state` by a persisted cubit.
  private func stored<State: PersistableState>(_ state: State) async throws -> Data {
    let storage = InMemoryStorage()
    let cubit = Cubit(
      initialState: state,
      persistence: Persistence(storage: storage, key: "k", storeInitialState: true))
    await cubit.close()
    return try #require(storage.contents["k"])
  }

  /// `Stored` and the sequence number stored beside it (0: the initial state).
  private struct StoredWithSequence<State: Encodable>: Encodable {
    let schemaVersion: Int
    let seq: UInt64
    let state: State
  }

  private func foundation<State: PersistableState>(_ state: State) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(
      StoredWithSequence(schemaVersion: State.schemaVersion, seq: 0, state: state))
  }

  @Test func theStoredTextIsWhatJSONEncoderWrites() async throws {
    let state = Everything()
    let data = try await stored(state)
    #expect(
      String(decoding: data, as: UTF8.self)
        == String(decoding: try foundation(state), as: UTF8.self))
  }

  @Test func everyValueReadsBackExactly() async throws {
    var state = Everything()
    state.list = [Inner(label: "", ratio: 3.4028235e38, tags: [])]
    state.fraction = 0.30000000000000004
    let data = try await stored(state)
    let back = try JSONDecoder().decode(Stored<Everything>.self, from: data)
    #expect(back.schemaVersion == 3)
    #expect(back.state == state)
    #expect(back.state.negativeZero.sign == .minus)
  }

  @Test func typesWithEncodingStrategiesAreWrittenByJSONEncoder() async throws {
    let state = Dated()
    #expect(try await stored(state) == (try foundation(state)))
  }

  @Test func aNonFiniteNumberIsNeverStoredAndTheStateReturns() async throws {
    struct Measured: PersistableState { var value = 1.0 }
    let storage = InMemoryStorage()
    let cubit = Cubit(
      initialState: Measured(), persistence: Persistence(storage: storage, key: "m"))
    try cubit.emit(Measured(value: .infinity))
    await cubit.close()
    #expect(storage.contents["m"] == nil, "nothing written")
    #expect(cubit.state.value == 1.0, "back to the last stored state")
  }

  /// A state that writes itself is stored in its own text, no encoder involved.
  @Test func aStateThatWritesItselfIsStoredInItsOwnText() async throws {
    struct Own: PersistableState, WritesJSON {
      var count = 3
      func writeJSON(into bytes: inout [UInt8]) throws { bytes += #"{"n":\#(count)}"#.utf8 }
      func encode(to encoder: any Encoder) throws { Issue.record("encoded through Codable") }
    }
    let data = try await stored(Own())
    #expect(
      String(decoding: data, as: UTF8.self) == #"{"schemaVersion":1,"seq":0,"state":{"n":3}}"#)
  }
}
