import Foundation

/// A fresh directory under the system temp dir, for fixture files.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// defer { directory.remove() }
/// let path = try directory.write("status", "Package: bash\n")
/// ```
struct TemporaryDirectory {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "appsearch-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `bytes` as-is, so fixtures can hold CRLF and invalid UTF-8.
  @discardableResult
  func write(_ name: String, bytes: [UInt8]) throws -> String {
    let file = (path as NSString).appendingPathComponent(name)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return file
  }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    try write(name, bytes: Array(text.utf8))
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
