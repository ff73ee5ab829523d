import StatectlCore

/// The outcome of an in-process `statectl` run.
struct RunResult {
  var status: ExitStatus
  var standardOutput: String
  var standardError: String
}

/// Runs statectl in this process with a captured console and a fixed environment.
func runStatectl(
  _ arguments: [String], terminal: Bool = false, environment: [String: String] = [:],
  uid: UInt32 = 4242
) -> RunResult {
  let console = CapturedConsole(isTerminal: terminal)
  let statectl = Statectl(console: console, environment: { environment[$0] }, uid: uid)
  let status = statectl.run(arguments)
  return RunResult(
    status: status, standardOutput: console.standardOutput, standardError: console.standardError)
}
