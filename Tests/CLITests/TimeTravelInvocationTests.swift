import StatectlCore
import Testing

/// The command lines of time travel: history, goto, monitor --diff/--record, replay,
/// export-test.
@Suite struct TimeTravelInvocationTests: CommandLineParsing {
  @Test func history() throws {
    #expect(
      try parse("history", "counter").command == .history(feature: "counter", last: nil, since: nil)
    )
    #expect(
      try parse("history", "counter", "--last", "20").command
        == .history(feature: "counter", last: 20, since: nil))
    #expect(
      try parse("history", "--since=40", "counter").command
        == .history(feature: "counter", last: nil, since: 40))
    #expect(usageError("history", "counter", "--last", "0")?.command == .history)
    #expect(usageError("history", "counter", "--since", "-1")?.message.contains("a seq") == true)
    #expect(
      usageError("history", "counter", "--last", "2", "--since", "3")?.message
        == "give --last or --since, not both")
    #expect(usageError("history")?.message.contains("missing FEATURE") == true)
    #expect(
      usageError("history", "counter", "settings")?.message == "unexpected argument 'settings'")
    #expect(
      usageError("get", "counter", "--last", "2")?.message == "option --last is only for 'history'")
  }

  @Test func goto() throws {
    #expect(try parse("goto", "counter", "42").command == .goto(feature: "counter", seq: 42))
    #expect(try parse("goto", "counter", "0").command == .goto(feature: "counter", seq: 0))
    let notANumber = usageError("goto", "counter", "forty")
    #expect(notANumber?.command == .goto)
    #expect(
      notANumber?.message
        == "SEQ needs a seq, a whole number 0 or more (see 'statectl history FEATURE'), got 'forty'"
    )
    #expect(usageError("goto", "counter", "--", "-3")?.message.contains("got '-3'") == true)
    #expect(usageError("goto", "counter")?.message.contains("missing SEQ") == true)
  }

  @Test func monitorDiffAndRecord() throws {
    let invocation = try parse("monitor", "counter", "--diff", "--record", "s.ndjson")
    #expect(invocation.command == .monitor(features: ["counter"], count: nil))
    #expect(invocation.timeTravel.diff)
    #expect(invocation.timeTravel.record == "s.ndjson")
    #expect(
      usageError("watch", "counter", "--diff")?.message == "option --diff is only for 'monitor'")
    #expect(usageError("monitor", "--record")?.message.contains("needs a value") == true)
  }

  @Test func replay() throws {
    #expect(
      try parse("replay", "s.ndjson").command
        == .replay(file: "s.ndjson", features: [], skipEffects: false))
    #expect(
      try parse(
        "replay", "s.ndjson", "--feature", "counter", "--feature=settings", "--skip-effects"
      )
      .command == .replay(file: "s.ndjson", features: ["counter", "settings"], skipEffects: true))
    #expect(usageError("replay")?.message.contains("missing FILE") == true)
    #expect(
      usageError("replay", "s.ndjson", "--feature", "a", "--feature", "a")?.message
        == "feature 'a' is given twice")
  }

  @Test func exportTest() throws {
    #expect(
      try parse("export-test", "s.ndjson", "--feature", "counter").command
        == .exportTest(file: "s.ndjson", feature: "counter", name: nil, output: nil))
    #expect(
      try parse(
        "export-test", "s.ndjson", "--feature", "counter", "--name", "CounterSession", "-o",
        "T.swift"
      )
      .command
        == .exportTest(
          file: "s.ndjson", feature: "counter", name: "CounterSession", output: "T.swift"))
    #expect(usageError("export-test", "s.ndjson")?.message.contains("missing --feature") == true)
    #expect(
      usageError("export-test", "s.ndjson", "--feature", "c", "--name", "2x")?.command
        == .exportTest)
    #expect(
      usageError("export-test", "s.ndjson", "--feature", "a", "--feature", "b")?.message
        == "export-test writes one feature's test: give one --feature")
    #expect(try parse("export-test", "--help").command == .help(.exportTest))
  }
}
