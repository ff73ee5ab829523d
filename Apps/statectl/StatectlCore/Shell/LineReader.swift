/// Reads lines at the shell's prompt: draws the prompt, applies editing keys, recalls history
/// and completes words with Tab. Keys decoded after an Enter (a pasted block) wait for the
/// next line.
final class LineReader {
  let terminal: Terminal
  let prompt: String
  let completion: ShellCompletion
  private var decoder = KeyDecoder()
  private var waiting: [Key] = []

  init(terminal: Terminal, prompt: String, completion: ShellCompletion) {
    self.terminal = terminal
    self.prompt = prompt
    self.completion = completion
  }

  /// The next line entered; nil on Ctrl-D at an empty line or at the end of input.
  func readLine(history: inout ShellHistory) -> String? {
    terminal.raw()
    defer { terminal.cooked() }
    var line = LineEditor()
    history.resetBrowsing()
    draw(line)
    while let key = nextKey() {
      switch key {
      case .enter:
        terminal.write("\r\n")
        return line.text
      case .endOfInput where line.isEmpty:
        terminal.write("\r\n")
        return nil
      case .interrupt:
        terminal.write("^C\r\n")
        line = LineEditor()
        history.resetBrowsing()
      case .up:
        if let entry = history.previous(current: line.text) { line.replace(with: entry) }
      case .down:
        if let entry = history.next() { line.replace(with: entry) }
      case .tab:
        complete(&line)
      case .clearScreen:
        terminal.write("\u{1B}[H\u{1B}[2J")
      default:
        line.apply(key)
      }
      draw(line)
    }
    terminal.write("\r\n")
    return nil
  }

  private func nextKey() -> Key? {
    while waiting.isEmpty {
      guard let bytes = terminal.read() else { return nil }
      waiting = decoder.keys(from: bytes)
    }
    return waiting.removeFirst()
  }

  private func draw(_ line: LineEditor) {
    terminal.write(LineDisplay.render(prompt: prompt, line: line, width: terminal.width))
  }

  /// One candidate completes the word (and a space ends it, unless it ends with '=' and waits
  /// for a value); several extend it to what they share, else are listed under the line.
  private func complete(_ line: inout LineEditor) {
    let (word, candidates) = completion.candidates(before: line.textBeforeCursor)
    if candidates.count == 1, let only = candidates.first {
      line.replaceBeforeCursor(word.count, with: only.hasSuffix("=") ? only : only + " ")
      return
    }
    let shared = ShellCompletion.commonPrefix(candidates)
    if shared.count > word.count {
      line.replaceBeforeCursor(word.count, with: shared)
    } else if candidates.isEmpty {
      terminal.write("\u{07}")
    } else {
      terminal.write("\r\n" + LineDisplay.list(candidates, width: terminal.width))
    }
  }
}
