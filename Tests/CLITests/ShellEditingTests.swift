import Foundation
import StatectlCore
import Testing

/// The interactive shell's parts that need no terminal: keys decoded from a terminal's bytes,
/// line editing, drawing, word splitting and the history file.
@Suite struct ShellEditingTests {
  @Test func keysFromBytesHoweverTheyAreSplit() {
    let bytes = Array("a\u{1B}[D\u{1B}[3~\u{1B}OH\u{1B}[1~é\r\u{7F}\u{17}".utf8)
    let expected: [Key] = [
      .character("a"), .left, .delete, .home, .home, .character("é"), .enter, .backspace,
      .deleteWord,
    ]
    var whole = KeyDecoder()
    let decoded = whole.keys(from: bytes)
    #expect(decoded == expected)
    // One byte at a time: an escape sequence or a UTF-8 character split across reads.
    var split = KeyDecoder()
    var oneByOne: [Key] = []
    for byte in bytes { oneByOne += split.keys(from: [byte]) }
    #expect(oneByOne == expected)
  }

  @Test func editingKeys() {
    var line = LineEditor("send counter")
    line.apply(.deleteWord)
    #expect(line.text == "send " && line.cursor == 5)
    line.insert("ping")
    line.apply(.home)
    line.apply(.right)
    line.apply(.delete)
    #expect(line.text == "snd ping" && line.cursor == 1)
    line.apply(.character("e"))
    line.apply(.end)
    line.apply(.backspace)
    #expect(line.text == "send pin")
    line.apply(.left)
    line.apply(.deleteToEnd)
    #expect(line.text == "send pi")
    line.apply(.left)
    line.apply(.deleteToStart)
    #expect(line.text == "i" && line.cursor == 0)
    let edited = line.apply(.tab)
    #expect(!edited)
  }

  @Test func aLongLineScrollsToKeepTheCursorInView() {
    #expect(
      LineDisplay.render(prompt: "> ", line: LineEditor("ping"), width: 80)
        == "\r> ping\u{1B}[0K\r\u{1B}[6C")
    let long = LineEditor(String(repeating: "x", count: 20) + "yz")
    #expect(
      LineDisplay.render(prompt: "> ", line: long, width: 10) == "\r> xxxxxyz\u{1B}[0K\r\u{1B}[9C")
  }

  @Test func wordsSplitLikeAShell() throws {
    #expect(
      try ShellWords.split(#"send search search term="text editor""#)
        == ["send", "search", "search", "term=text editor"])
    #expect(try ShellWords.split(#"  a\ b 'c "d"' "e\"f" '' "#) == ["a b", #"c "d""#, #"e"f"#, ""])
    #expect(throws: ShellWords.UnterminatedQuote(quote: "'")) { try ShellWords.split("get 'x") }
  }

  @Test func historyIsKeptInAFile() throws {
    let home = try TemporaryTree()
    let path = ShellHistory.defaultPath { $0 == "XDG_STATE_HOME" ? home.path + "/new/state" : nil }
    #expect(path == home.path + "/new/state/statectl_history")
    #expect(
      ShellHistory.defaultPath { $0 == "HOME" ? "/home/ada" : nil }
        == "/home/ada/.local/state/statectl_history")
    var history = ShellHistory(path: path)
    history.add(" ping ")
    history.add("ping")  // a repeat of the last
    history.add("   ")
    history.add("get counter")
    #expect(history.entries == ["ping", "get counter"])
    var browsed: [String?] = [history.previous(current: "typed")]
    browsed += [history.previous(current: ""), history.previous(current: "")]
    browsed += [history.next(), history.next(), history.next()]
    #expect(browsed == ["get counter", "ping", nil, "get counter", "typed", nil])
    let again = ShellHistory(path: path)
    #expect(again.entries == ["ping", "get counter"])
    let limited = ShellHistory(path: path, limit: 1)
    #expect(limited.entries == ["get counter"])
  }
}
