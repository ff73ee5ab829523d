/// How searches run right now: where, in which store country, how many results, and how often.
///
/// ```swift
/// let fast = SearchConfiguration(source: .itunes, country: "de", limit: 10, throttle: .zero)
/// ```
public struct SearchConfiguration: Sendable, Hashable {
  public var source: SearchSource
  /// Two-letter store country; the package catalog ignores it.
  public var country: String
  /// The most results a search returns.
  public var limit: Int
  /// At most one search starts per this interval (the latest term wins).
  public var throttle: Duration

  public init(
    source: SearchSource = .packages, country: String = "us", limit: Int = 20,
    throttle: Duration = .milliseconds(200)
  ) {
    self.source = source
    self.country = country
    self.limit = limit
    self.throttle = throttle
  }
}

/// Where the search reads its configuration: one of the two things it needs from outside
/// (with ``AppSearchServices``). Read ``configuration`` as each search starts, so that a change
/// applies to the next search.
///
/// The daemon satisfies it from the Settings feature; ``FixedSearchConfiguration`` is the test
/// double.
///
/// ```swift
/// struct SettingsConfiguration: SearchConfigurationSource {
///   let settings: SettingsBloc
///   var configuration: SearchConfiguration { … settings.storedSnapshot.state.searchLimit … }
/// }
/// ```
public protocol SearchConfigurationSource: Sendable {
  var configuration: SearchConfiguration { get }
}

/// A configuration that never changes.
///
/// ```swift
/// AppSearchBloc(configuration: FixedSearchConfiguration(.init(limit: 2)), storage: storage)
/// ```
public struct FixedSearchConfiguration: SearchConfigurationSource {
  public let configuration: SearchConfiguration

  public init(_ configuration: SearchConfiguration = SearchConfiguration()) {
    self.configuration = configuration
  }
}
