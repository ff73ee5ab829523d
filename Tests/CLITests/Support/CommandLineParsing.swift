import StatectlCore

/// What the suites of statectl's command lines share: a command line parsed, or the usage error
/// it gets.
protocol CommandLineParsing {}

extension CommandLineParsing {
  func parse(_ arguments: String...) throws -> Invocation {
    try Invocation(parsing: arguments)
  }

  func usageError(_ arguments: String...) -> CommandLineError? {
    do {
      _ = try Invocation(parsing: arguments)
      return nil
    } catch {
      return error
    }
  }
}
