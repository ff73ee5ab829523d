/// The search service for each ``SearchSource``: with ``SearchConfigurationSource``, what the
/// AppSearch bloc needs from outside.
///
/// ```swift
/// AppSearchBloc(configuration: configuration, storage: storage, services: .live)
/// AppSearchBloc(storage: storage, services: .using(FixtureService()))
/// ```
public struct AppSearchServices: Sendable {
  /// Used for ``SearchSource/packages``.
  public var packages: any AppSearchService
  /// Used for ``SearchSource/itunes``.
  public var itunes: any AppSearchService

  public init(packages: any AppSearchService, itunes: any AppSearchService) {
    self.packages = packages
    self.itunes = itunes
  }

  /// The machine's package catalog (``PackageCatalogService/system``) and the App Store
  /// (one ``ITunesSearchService`` per process).
  public static var live: AppSearchServices {
    AppSearchServices(packages: PackageCatalogService.system, itunes: sharedITunes)
  }

  /// The same service for every backend; for tests.
  public static func using(_ service: any AppSearchService) -> AppSearchServices {
    AppSearchServices(packages: service, itunes: service)
  }

  /// The service for a source.
  public func service(for source: SearchSource) -> any AppSearchService {
    switch source {
    case .packages: return packages
    case .itunes: return itunes
    }
  }

  private static let sharedITunes = ITunesSearchService()
}
