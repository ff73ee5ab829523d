/// Word-boundary test for a term found inside (not at the start of) a name.
///
/// ```swift
/// // "gtk" in "libgtk-3-0": inside a word → substring tier
/// // "3"   in "libgtk-3-0": between separators → whole-word tier
/// ```
enum NameMatch {
  /// True when some occurrence of `term` in `name` is bounded on both sides
  /// by a separator (or the name's end). A term that itself starts or ends
  /// with a separator (e.g. "-dev") supplies that boundary.
  static func isWholeWord(
    _ term: UnsafeBufferPointer<UInt8>, in name: UnsafeBufferPointer<UInt8>
  )
    -> Bool
  {
    guard let first = term.first, let last = term.last else { return false }
    let opensWord = SearchText.isSeparator(first)
    let closesWord = SearchText.isSeparator(last)
    var position = 0
    while let found = ByteSearch.firstIndex(of: term, in: name, from: position) {
      let end = found + term.count
      let leftOK = opensWord || found == 0 || SearchText.isSeparator(name[found - 1])
      let rightOK = closesWord || end == name.count || SearchText.isSeparator(name[end])
      if leftOK && rightOK { return true }
      position = found + 1
    }
    return false
  }
}
