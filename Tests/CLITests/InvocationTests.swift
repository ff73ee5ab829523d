import StatectlCore
import Testing
import Wire

@Suite struct InvocationTests: CommandLineParsing {
  @Test func commandsWithTheirArguments() throws {
    #expect(try parse("get", "counter").command == .get(features: ["counter"]))
    #expect(try parse("describe", "counter").command == .describe(feature: "counter"))
    #expect(try parse("undo", "counter").command == .undo(feature: "counter"))
    #expect(try parse("redo", "counter").command == .redo(feature: "counter"))
    #expect(try parse("features").command == .features)
    #expect(try parse("ping").command == .ping)
    #expect(
      try parse("watch", "counter").command
        == .watch(features: ["counter"], count: nil, select: nil))
    #expect(
      try parse("send", "counter", "increment").command
        == .send(feature: "counter", event: "increment", fields: [:]))
  }

  @Test func sendFieldsKeepTheirOrderAndTypes() throws {
    let command = try parse("send", "settings", "set", "key=theme", "value:=3", "on:=true").command
    #expect(
      command
        == .send(
          feature: "settings", event: "set", fields: ["key": "theme", "value": 3, "on": true]))
  }

  @Test func globalOptionsAnywhere() throws {
    let before = try parse("--socket", "/tmp/s.sock", "--json", "get", "counter")
    let after = try parse("get", "counter", "--socket=/tmp/s.sock", "--json")
    #expect(before == after)
    #expect(before.options.socket == "/tmp/s.sock")
    #expect(before.options.output == .json)
    #expect(try parse("get", "counter", "--human").options.output == .human)
    #expect(try parse("get", "counter").options.output == .automatic)
  }

  @Test func timeoutOption() throws {
    #expect(try parse("ping").options.timeout == .seconds(10))
    #expect(try parse("ping", "--timeout", "0.25").options.timeout == .milliseconds(250))
    #expect(try parse("ping", "--timeout=0").options.timeout == nil)
    #expect(usageError("ping", "--timeout", "soon")?.message.contains("--timeout") == true)
    #expect(usageError("ping", "--timeout", "-1") != nil)
  }

  @Test func watchCount() throws {
    #expect(
      try parse("watch", "counter", "--count", "3").command
        == .watch(features: ["counter"], count: 3, select: nil))
    #expect(
      try parse("watch", "--count=2", "counter").command
        == .watch(features: ["counter"], count: 2, select: nil))
    #expect(
      try parse("watch", "counter", "-n", "1").command
        == .watch(features: ["counter"], count: 1, select: nil))
    #expect(usageError("watch", "counter", "--count", "0")?.command == .watch)
    #expect(usageError("watch", "counter", "--count", "x") != nil)
    #expect(usageError("watch", "counter", "--count") != nil)
    #expect(
      usageError("get", "counter", "--count", "2")?.message
        == "option --count is only for 'watch' and 'monitor'")
  }

  @Test func help() throws {
    #expect(try parse("--help").command == .help(nil))
    #expect(try parse("-h").command == .help(nil))
    #expect(try parse("help").command == .help(nil))
    #expect(try parse("help", "send").command == .help(.send))
    #expect(try parse("send", "--help").command == .help(.send))
    #expect(try parse("watch", "counter", "-h").command == .help(.watch))
    // Help wins over arguments that would be an error.
    #expect(try parse("send", "--help", "x").command == .help(.send))
    #expect(try parse("--version").command == .version)
    #expect(try parse("get", "-V").command == .version)
    #expect(usageError("help", "nope")?.command == .help)
  }

  @Test func doubleDashEndsOptions() throws {
    #expect(
      try parse("send", "counter", "set", "--", "-x=1").command
        == .send(feature: "counter", event: "set", fields: ["-x": "1"]))
  }

  @Test func usageErrorsNameTheCommand() {
    #expect(usageError()?.message == "missing command")
    #expect(usageError("sned")?.message == "unknown command 'sned' (did you mean 'send'?)")
    #expect(usageError("frobnicate")?.message == "unknown command 'frobnicate'")
    #expect(usageError("get")?.command == .get)
    #expect(usageError("get")?.message.hasPrefix("missing FEATURE") == true)
    #expect(usageError("get", "a", "a")?.message == "feature 'a' is given twice")
    #expect(usageError("describe", "a", "b")?.message == "unexpected argument 'b'")
    #expect(usageError("ping", "x")?.message == "unexpected argument 'x'")
    #expect(usageError("send", "counter")?.message.hasPrefix("missing EVENT") == true)
    #expect(usageError("send")?.message.hasPrefix("missing FEATURE and EVENT") == true)
    #expect(usageError("get", "counter", "--frob")?.message == "unknown option '--frob'")
    #expect(usageError("get", "counter", "--frob")?.command == .get)
    #expect(usageError("get", "counter", "--socket") != nil)
    #expect(usageError("get", "counter", "--socket=") != nil)
    #expect(usageError("get", "counter", "--json=yes")?.message == "option --json takes no value")
  }

  @Test func badRawJSONNamesTheArgument() {
    let error = usageError("send", "counter", "set", "value:=abc")
    #expect(error?.command == .send)
    #expect(error?.message.hasPrefix("invalid JSON in 'value:=abc'") == true)
    #expect(error?.message.hasSuffix("(for text use value=abc)") == true)
  }

  @Test func severalFeaturesMonitorAndSelect() throws {
    #expect(
      try parse("get", "counter", "settings").command == .get(features: ["counter", "settings"]))
    #expect(
      try parse("watch", "counter", "settings", "-n", "2").command
        == .watch(features: ["counter", "settings"], count: 2, select: nil))
    #expect(
      try parse("watch", "search", "--select", "activity.status").command
        == .watch(features: ["search"], count: nil, select: "activity.status"))
    #expect(try parse("monitor").command == .monitor(features: [], count: nil))
    #expect(
      try parse("monitor", "counter", "--count=3").command
        == .monitor(features: ["counter"], count: 3))
    #expect(
      usageError("watch", "counter", "--select", "a..b")?.message.hasPrefix(
        "option --select needs member names separated by '.'") == true)
    #expect(
      try parse("get", "counter", "--select", "count").command
        == .get(features: ["counter"], select: "count"))
    #expect(
      usageError("describe", "counter", "--select", "count")?.message
        == "option --select is only for 'get' and 'watch'")
    #expect(
      try parse("monitor", "--event", "set", "--outcome", "failed", "--outcome", "dropped").command
        == .monitor(
          features: [], count: nil,
          filter: MonitorFilter(events: ["set"], outcomes: ["failed", "dropped"])))
  }

  @Test func callSendFromStdinInfoAndRepeat() throws {
    #expect(try parse("info").command == .info)
    #expect(try parse("call", "-").command == .call(.standardInput))
    #expect(try parse("call", #"{"op":"ping"}"#).command == .call(.request(["op": "ping"])))
    #expect(try parse("send", "counter", "-").command == .sendStandardInput(feature: "counter"))
    #expect(
      try parse("-r", "3", "-i", "0.5", "ping").options.repetition
        == Repetition(count: 3, interval: .milliseconds(500)))
    #expect(
      try parse("ping", "--interval", "2").options.repetition
        == Repetition(count: nil, interval: .seconds(2)))
    #expect(
      try parse("ping", "--repeat", "-1").options.repetition
        == Repetition(count: nil, interval: .zero))
    #expect(
      usageError("monitor", "-r", "2")?.message
        == "options -r and -i repeat a request; 'monitor' cannot be repeated")
  }

  @Test func socketAndCompletions() throws {
    #expect(try parse("socket").command == .socket)
    #expect(try parse("completions", "fish").command == .completions(.fish))
    #expect(usageError("completions")?.message == "missing SHELL (one of bash, zsh, fish)")
    #expect(
      usageError("completions", "tcsh")?.message
        == "no completions for 'tcsh'; shells: bash, zsh, fish")
    // The completion helper takes its words as they are, partial options included.
    #expect(try parse("__complete", "send", "--so").command == .complete(["send", "--so"]))
  }
}
