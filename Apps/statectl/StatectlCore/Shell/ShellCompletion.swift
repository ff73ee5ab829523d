/// Tab completion at the shell's prompt: the command line's completion (`Completion`: commands,
/// then features, events and fields from the daemon's `describe`) for the words typed so far,
/// plus the shell's own `quit` and `exit` as a first word.
///
/// ```swift
/// ShellCompletion(options: [], environment: { _ in nil }, uid: 1000).candidates(before: "send cou")
/// // (word: "cou", candidates: ["counter"])
/// ```
struct ShellCompletion {
  /// The options the shell was started with (`--socket PATH`…), so that completion asks the
  /// same daemon the commands talk to.
  let options: [String]
  let environment: (String) -> String?
  let uid: UInt32

  static let shellCommands = ["quit", "exit"]

  /// The word before the cursor and what it may complete to.
  func candidates(before text: String) -> (word: String, candidates: [String]) {
    var words = text.split(separator: " ").map(String.init)
    if text.isEmpty || text.hasSuffix(" ") { words.append("") }
    let word = words.last ?? ""
    // 'statectl send …' typed out of habit is completed as 'send …'.
    if words.count > 1, words.first == "statectl" { words.removeFirst() }
    var found = Completion(environment: environment, uid: uid).candidates(options + words)
    if words.count == 1 { found += Self.shellCommands.filter { $0.hasPrefix(word) } }
    return (word, found)
  }

  /// The longest beginning every candidate shares.
  static func commonPrefix(_ candidates: [String]) -> String {
    guard var shared = candidates.first else { return "" }
    for candidate in candidates.dropFirst() {
      while !candidate.hasPrefix(shared) { shared.removeLast() }
    }
    return shared
  }
}
