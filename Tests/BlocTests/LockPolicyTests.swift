import Foundation
import Testing

/// LIBRARY.md says every lock in the workspace is `Locked`: ThreadSanitizer, which CI runs the
/// whole suite under, cannot see the toolchain's futex-based `Synchronization.Mutex`.
@Suite struct LockPolicyTests {
  @Test func everyLockIsLocked() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    // Built from parts, so that this file does not match itself.
    let type = "Mut" + "ex"
    var offenders: [String] = []
    for folder in ["Modules", "Apps", "Tests", "Scripts"] {
      let base = root.appendingPathComponent(folder)
      guard let files = FileManager.default.enumerator(atPath: base.path) else { continue }
      for case let path as String in files where path.hasSuffix(".swift") {
        let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        {
          let code = line.components(separatedBy: "//")[0]
          if code.contains("\(type)(") || code.contains("\(type)<") {
            offenders.append("\(folder)/\(path):\(number + 1): \(line)")
          }
        }
      }
    }
    #expect(offenders.isEmpty, "use Locked (BlocCore, package access) instead:\n\(offenders)")
  }
}
