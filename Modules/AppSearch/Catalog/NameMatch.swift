/// How a name matches a term, in ranking order.
///
/// ```swift
/// // term "gtk": "gtk" → .exact, "gtkwave" → .prefix,
/// //   "ruby-gtk" → .word, "libgtk-3-0" → .substring, "bash" → nil
/// ```
enum NameMatch: Comparable {
  case exact, prefix, word, substring

  /// Words are separated by ASCII punctuation and spaces (see
  /// ``SearchText/isSeparator(_:)``); a term that itself starts or ends with
  /// a separator (e.g. "-dev") supplies that boundary.
  static func classify(
    _ term: UnsafeBufferPointer<UInt8>, in name: UnsafeBufferPointer<UInt8>
  )
    -> NameMatch?
  {
    guard let first = term.first, let last = term.last,
      var found = ByteSearch.firstIndex(of: term, in: name, from: 0)
    else { return nil }
    if found == 0 { return name.count == term.count ? .exact : .prefix }
    let opensWord = SearchText.isSeparator(first)
    let closesWord = SearchText.isSeparator(last)
    while true {
      let end = found + term.count
      let leftOK = opensWord || SearchText.isSeparator(name[found - 1])
      let rightOK = closesWord || end == name.count || SearchText.isSeparator(name[end])
      if leftOK && rightOK { return .word }
      guard let next = ByteSearch.firstIndex(of: term, in: name, from: found + 1) else {
        return .substring
      }
      found = next
    }
  }
}
