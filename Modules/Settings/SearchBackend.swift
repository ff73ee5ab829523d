/// Where AppSearch looks for apps.
///
/// ```swift
/// if settings.state.searchBackend == .itunes { … }
/// ```
public enum SearchBackend: String, CaseIterable, Codable, Sendable {
  /// The Debian packages known to this machine, offline.
  case packages
  /// The App Store, through the iTunes Search API.
  case itunes
}
