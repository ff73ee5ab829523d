import Foundation

/// Where a ``PackageCatalogService`` gets its entries, and how to read them.
///
/// ```swift
/// let index = try CatalogSource.files(["/var/lib/dpkg/status"]).load()
/// ```
enum CatalogSource: Sendable {
  /// Control files, all of which must be readable.
  case files([String])
  /// dpkg's status file plus apt's package lists, whichever exist when loading.
  case system(statusFile: String, listsDirectory: String)
  /// Ready-made entries (tests, benchmarks, other sources).
  case entries([App])

  func load() throws(SearchFailure) -> CatalogIndex {
    switch self {
    case .entries(let apps):
      return CatalogIndex(apps)
    case .files(let paths):
      return CatalogIndex(try Self.apps(fromFiles: paths))
    case .system(let statusFile, let listsDirectory):
      let paths = Self.systemFiles(statusFile: statusFile, listsDirectory: listsDirectory)
      guard !paths.isEmpty else {
        throw .catalogUnavailable(path: statusFile, reason: "No such file or directory")
      }
      return CatalogIndex(try Self.apps(fromFiles: paths))
    }
  }

  /// One app per package name; see ``PackageStanza/precedence``, then the
  /// first file wins.
  static func apps(fromFiles paths: [String]) throws(SearchFailure) -> [App] {
    var apps: [App] = []
    var precedences: [Int] = []
    var slots: [String: Int] = [:]  // package name → index in `apps`
    for path in paths {
      let stanzas = try stanzas(inFile: path)
      slots.reserveCapacity(slots.count + stanzas.count)
      for stanza in stanzas {
        guard let app = stanza.app else { continue }
        if let slot = slots[app.name] {
          guard stanza.precedence > precedences[slot] else { continue }
          (apps[slot], precedences[slot]) = (app, stanza.precedence)
        } else {
          slots[app.name] = apps.count
          apps.append(app)
          precedences.append(stanza.precedence)
        }
      }
    }
    return apps
  }

  private static func stanzas(inFile path: String) throws(SearchFailure) -> [PackageStanza] {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .catalogUnavailable(path: path, reason: reason(for: error))
    }
    return data.withUnsafeBytes { ControlFileParser.stanzas(in: $0) }
  }

  /// The status file first (its entries win ties), then the lists, sorted
  /// so loading is deterministic. Compressed lists (`*_Packages.lz4`, `.gz`,
  /// as Docker images keep them) are skipped: Foundation cannot inflate them.
  static func systemFiles(statusFile: String, listsDirectory: String) -> [String] {
    let manager = FileManager.default
    let lists = ((try? manager.contentsOfDirectory(atPath: listsDirectory)) ?? [])
      .filter { $0.hasSuffix("_Packages") }
      .sorted()
      .map { (listsDirectory as NSString).appendingPathComponent($0) }
    return (manager.fileExists(atPath: statusFile) ? [statusFile] : []) + lists
  }

  /// The plain OS reason ("No such file or directory") rather than Cocoa's.
  private static func reason(for error: any Error) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
      return underlying.localizedDescription
    }
    switch CocoaError.Code(rawValue: error.code) {
    case .fileReadNoSuchFile, .fileNoSuchFile: return "No such file or directory"
    case .fileReadNoPermission: return "Permission denied"
    default: return error.localizedDescription
    }
  }
}
