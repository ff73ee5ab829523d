import Wire

/// Errors as one JSON object on stderr wherever replies are JSON (`--json`, or stdout not a
/// terminal without `--human`): scripts read the same codes the daemon sends, and a code of
/// statectl's own when the daemon never answered. The exit status is the same either way.
///
/// ```
/// {"ok":false,"status":1,"error":{"code":"unknown_feature","message":"no feature 'x'","hint":"list the features with: statectl features"}}
/// {"ok":false,"status":3,"error":{"code":"unreachable","message":"…","hint":"…"}}
/// ```
///
/// `status` is the exit status; `code` is the daemon's error code when it refused, else
/// `usage` (2), `unreachable` (3) or `connection_failed` (4).
/// `Scripts/stated_client.py --json` writes the same shape.
enum ErrorReport {
  /// Whether a command line that could not be parsed gets its error as JSON: `--json` or
  /// `--human` (the last one given, before `--`) decides, else whether stdout is a terminal.
  static func isJSON(arguments: [String], terminal: Bool) -> Bool {
    let options = arguments.prefix { $0 != "--" }
    guard let last = options.last(where: { $0 == "--json" || $0 == "--human" }) else {
      return !terminal
    }
    return last == "--json"
  }

  /// The code for a failure the daemon did not name.
  static func code(for status: ExitStatus) -> String {
    switch status {
    case .success: "ok"
    case .refused: "refused"
    case .usage: "usage"
    case .unreachable: "unreachable"
    case .connectionFailed: "connection_failed"
    }
  }

  static func json(status: ExitStatus, code: String, message: String, hint: String?) -> String {
    var error: JSONObject = ["code": .string(code), "message": .string(message)]
    if let hint, !hint.isEmpty { error["hint"] = .string(hint) }
    let report: JSONObject = [
      "ok": false, "status": JSON(Int(status.rawValue)), "error": .object(error),
    ]
    return JSON.object(report).serializedString() + "\n"
  }

  /// A failure's text is "statectl: MESSAGE" then optional "hint: …" lines.
  static func json(_ failure: Failure) -> String {
    var lines = failure.message.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    var message = lines.isEmpty ? "" : lines.removeFirst()
    if message.hasPrefix("statectl: ") { message.removeFirst("statectl: ".count) }
    var hint = lines.map { line in
      line.hasPrefix("hint: ") ? String(line.dropFirst("hint: ".count)) : line
    }.joined(separator: "\n")
    if let refusal = failure.refusal {
      return json(
        status: failure.status, code: refusal.code.rawValue, message: refusal.message, hint: hint)
    }
    // Continuation lines of the message itself (indented) stay in the message.
    while hint.hasPrefix("  ") {
      let end = hint.firstIndex(of: "\n") ?? hint.endIndex
      message += "\n" + hint[..<end]
      hint = end == hint.endIndex ? "" : String(hint[hint.index(after: end)...])
    }
    return json(
      status: failure.status, code: code(for: failure.status), message: message, hint: hint)
  }
}
