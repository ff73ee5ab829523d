import Foundation
import Testing

/// LIBRARY.md's Swift blocks must each appear verbatim in LibraryTour.swift, which compiles.
@Suite struct LibraryTourTests {
  @Test func everyLibrarySwiftBlockIsCompiledCode() throws {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let document = try String(
      contentsOf: root.appendingPathComponent("LIBRARY.md"), encoding: .utf8)
    let tour = try String(
      contentsOf: here.deletingLastPathComponent().appendingPathComponent("LibraryTour.swift"),
      encoding: .utf8)
    let compiled = Set(taggedRegions(tour).map(normalized))
    let blocks = fencedSwiftBlocks(document)
    #expect(blocks.count >= 4, "the tour should show a cubit, a bloc, usage and a test")
    for block in blocks {
      #expect(
        compiled.contains(normalized(block)),
        "LIBRARY.md block not found in LibraryTour.swift:\n\(block)")
    }
  }

  func fencedSwiftBlocks(_ text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.hasPrefix("```swift") {
        current = []
      } else if current != nil, line.hasPrefix("```") {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else if current != nil {
        current!.append(line)
      }
    }
    return blocks
  }

  /// The code between `// tour: NAME` and `// end` markers.
  func taggedRegions(_ text: String) -> [String] {
    var regions: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("// tour:") {
        current = []
      } else if trimmed == "// end", let region = current {
        regions.append(region.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return regions
  }

  /// Compares code ignoring indentation and blank lines.
  func normalized(_ code: String) -> String {
    code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.joined(separator: "\n")
  }
}
