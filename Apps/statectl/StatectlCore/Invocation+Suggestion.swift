extension Invocation {
  /// The command within two edits of `word`, if exactly one is.
  static func suggestion(for word: String) -> CommandName? {
    let close = CommandName.allCases.filter { editDistance(word, $0.rawValue) <= 2 }
    return close.count == 1 ? close[0] : nil
  }

  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}
