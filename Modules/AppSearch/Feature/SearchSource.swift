import FeatureKit

/// Where a search looks for apps.
///
/// ```swift
/// services.service(for: .packages)
/// ```
public enum SearchSource: String, CaseIterable, Codable, Sendable {
  /// The Debian packages known to this machine, offline.
  case packages
  /// The App Store, through the iTunes Search API.
  case itunes
}

extension SearchSource: JSONWritable {}
