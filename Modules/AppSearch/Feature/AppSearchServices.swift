import Settings

/// The search service for each backend: the AppSearch bloc's one boundary.
///
/// ```swift
/// AppSearchBloc(settings: settings, storage: storage, services: .live)
/// AppSearchBloc(settings: settings, storage: storage, services: .using(FixtureService()))
/// ```
public struct AppSearchServices: Sendable {
  /// Used when `searchBackend` is `packages`.
  public var packages: any AppSearchService
  /// Used when `searchBackend` is `itunes`.
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

  /// The service for a backend.
  public func service(for backend: SearchBackend) -> any AppSearchService {
    switch backend {
    case .packages: return packages
    case .itunes: return itunes
    }
  }

  private static let sharedITunes = ITunesSearchService()
}
