/// The fields of one control-file stanza that become an ``App``.
///
/// ```swift
/// var stanza = PackageStanza()
/// stanza.set(.package, to: "bash")
/// stanza.set(.description, to: "GNU Bourne Again SHell")
/// stanza.app  // App(id: StableID.of("bash"), name: "bash", summary: "GNU Bourne Again SHell")
/// ```
struct PackageStanza: Equatable {
  enum Field {
    case package, version, section, maintainer, description, status, other

    private static let names: [(field: Field, name: [UInt8])] = [
      (.package, Array("package".utf8)), (.version, Array("version".utf8)),
      (.section, Array("section".utf8)), (.maintainer, Array("maintainer".utf8)),
      (.description, Array("description".utf8)), (.status, Array("status".utf8)),
    ]

    /// Field names are case-insensitive (deb822). Compared as bytes: this
    /// runs for every line of files with millions of lines.
    init(name: UnsafeBufferPointer<UInt8>) {
      self = .other
      for candidate in Self.names where candidate.name.count == name.count {
        // `| 0x20` lowercases ASCII letters and never turns a non-letter into one.
        if zip(name, candidate.name).allSatisfy({ $0 | 0x20 == $1 }) {
          self = candidate.field
          return
        }
      }
    }
  }

  var package: String?
  var version: String?
  var section: String?
  var maintainer: String?
  /// The synopsis: the first non-empty line of `Description`.
  var summary: String?
  /// dpkg's `Status` (`install ok installed`); absent in apt lists.
  var status: String?

  var isEmpty: Bool { self == PackageStanza() }

  mutating func set(_ field: Field, to value: String) {
    let value: String? = value.isEmpty ? nil : value
    switch field {
    case .package: package = value
    case .version: version = value
    case .section: section = value
    case .maintainer: maintainer = value
    case .description: summary = value
    case .status: status = value
    case .other: break
    }
  }

  /// A continuation line. Only the description's first line is kept (the
  /// rest is the long text); other fields are folded onto one line.
  mutating func `continue`(_ field: Field, with line: String) {
    guard !line.isEmpty else { return }
    switch field {
    case .description:
      // " ." marks an empty line inside the long description.
      if summary == nil && line != "." { summary = line }
    case .package: package = join(package, line)
    case .version: version = join(version, line)
    case .section: section = join(section, line)
    case .maintainer: maintainer = join(maintainer, line)
    case .status: status = join(status, line)
    case .other: break
    }
  }

  private func join(_ value: String?, _ line: String) -> String {
    value.map { "\($0) \(line)" } ?? line
  }

  /// True for dpkg entries of packages that are on this machine now, as
  /// opposed to removed ones whose config files remain.
  var isInstalled: Bool {
    guard let state = status?.split(separator: " ").last else { return false }
    return state == "installed" || state.hasPrefix("triggers-")
  }

  /// Which of two stanzas for the same package wins: the installed one,
  /// then an apt list entry (what can be installed), then a dpkg entry of a
  /// removed package (often just leftover config files).
  var precedence: Int { isInstalled ? 2 : status == nil ? 1 : 0 }

  /// Nil when the stanza names no package.
  var app: App? {
    guard let name = package else { return nil }
    return App(
      id: StableID.of(name), name: name, version: version, genre: section,
      developer: maintainer, summary: summary)
  }
}
