/// Splits a line typed at the shell's prompt into arguments much as a POSIX shell would, without
/// expansions: spaces separate words, '…' keeps everything in it, and a backslash, outside
/// quotes or in "…", keeps the next character as it is.
///
/// ```swift
/// try ShellWords.split(#"send search search term="text editor""#)
/// // ["send", "search", "search", "term=text editor"]
/// ```
public enum ShellWords {
  public struct UnterminatedQuote: Error, Equatable {
    public var quote: Character

    public init(quote: Character) { self.quote = quote }
  }

  public static func split(_ line: String) throws(UnterminatedQuote) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
      if escaped {
        word.append(character)
        escaped = false
        continue
      }
      switch (quote, character) {
      case (nil, " "), (nil, "\t"):
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case (nil, "\\"), ("\"", "\\"):
        escaped = true
        inWord = true
      case (let open?, _) where character == open:
        quote = nil
      default:
        word.append(character)
        inWord = true
      }
    }
    if let quote { throw UnterminatedQuote(quote: quote) }
    if escaped { word.append("\\") }
    if inWord { words.append(word) }
    return words
  }
}
