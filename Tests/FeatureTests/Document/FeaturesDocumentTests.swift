import Foundation
import Testing

/// FEATURES.md's Swift blocks are compiled code, as LIBRARY.md's are (LibraryTourTests): each
/// paragraph of a block (its lines up to a blank line or an elided `// …` line) appears, line
/// for line, in a Swift file of Modules/ or Apps/, or in FeaturesTour.swift. Comments and
/// indentation are not compared, so a block may annotate its lines and leave parts out.
@Suite struct FeaturesDocumentTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func everySwiftBlockIsCompiledCode() throws {
    let document = try String(
      contentsOf: Self.root.appendingPathComponent("FEATURES.md"), encoding: .utf8)
    let sources = try compiledSources().map(Self.codeLines)
    let blocks = Self.fencedSwiftBlocks(document)
    #expect(blocks.count >= 4, "FEATURES.md shows a feature, its bloc, the host and Settings")
    for block in blocks {
      for paragraph in Self.paragraphs(block) {
        #expect(
          sources.contains { Self.contains($0, paragraph) },
          "FEATURES.md's Swift is not compiled code (find it in Modules/, Apps/ or FeaturesTour.swift):\n\(paragraph.joined(separator: "\n"))"
        )
      }
    }
  }

  func compiledSources() throws -> [String] {
    var texts: [String] = []
    for folder in ["Modules", "Apps"] {
      let base = Self.root.appendingPathComponent(folder)
      guard let files = FileManager.default.enumerator(atPath: base.path) else { continue }
      for case let path as String in files where path.hasSuffix(".swift") {
        texts.append(try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8))
      }
    }
    let tour = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("FeaturesTour.swift")
    texts.append(try String(contentsOf: tour, encoding: .utf8))
    return texts
  }

  static func fencedSwiftBlocks(_ text: String) -> [[Substring]] {
    var blocks: [[Substring]] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.hasPrefix("```swift") {
        current = []
      } else if let block = current, line.hasPrefix("```") {
        blocks.append(block)
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// A block's code lines, split where it has a blank line or an elision (`// …`).
  static func paragraphs(_ block: [Substring]) -> [[String]] {
    var paragraphs: [[String]] = [[]]
    for line in block {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("// …") || trimmed == "…" {
        paragraphs.append([])
      } else if let code = code(of: line) {
        paragraphs[paragraphs.count - 1].append(code)
      }
    }
    return paragraphs.filter { !$0.isEmpty }
  }

  /// A line without indentation and end-of-line comment; nil for a comment or a blank line.
  static func code(of line: Substring) -> String? {
    var text = String(line)
    if let comment = text.range(of: "  // ") { text = String(text[..<comment.lowerBound]) }
    text = text.trimmingCharacters(in: .whitespaces)
    return text.isEmpty || text.hasPrefix("//") ? nil : text
  }

  static func codeLines(_ source: String) -> [String] {
    source.split(separator: "\n").compactMap(code(of:))
  }

  static func contains(_ lines: [String], _ run: [String]) -> Bool {
    guard run.count <= lines.count else { return false }
    return (0...(lines.count - run.count)).contains { start in
      lines[start..<(start + run.count)].elementsEqual(run)
    }
  }
}
