import BlocCore
import Dispatch

/// Loads a ``CatalogSource`` once, on first use, for any number of callers.
///
/// ```swift
/// let loader = CatalogLoader(.files(["/var/lib/dpkg/status"]))
/// let index = try await loader.index()  // concurrent callers share one load
/// ```
///
/// A failed load is not kept: the next call tries again, so a catalog that
/// appears later (after `apt update`) is picked up.
final class CatalogLoader: Sendable {
  private let source: CatalogSource
  // `Locked` (a pthread mutex, which ThreadSanitizer sees), not the toolchain's Mutex.
  private let loading = Locked<Task<CatalogIndex, any Error>?>(nil)

  init(_ source: CatalogSource) {
    self.source = source
  }

  func index() async throws -> CatalogIndex {
    let task = loading.withLock { current in
      if let current { return current }
      let source = self.source
      let started = Task { try await Self.loadOffPool(source) }
      current = started
      return started
    }
    do {
      return try await task.value
    } catch {
      loading.withLock { current in
        if current == task { current = nil }
      }
      throw error
    }
  }

  /// Reading and parsing blocks for a while (tens of MB with apt lists), so
  /// it runs on a Dispatch thread, not on Swift's small cooperative pool.
  private static func loadOffPool(_ source: CatalogSource) async throws -> CatalogIndex {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(with: Result { () throws(SearchFailure) in try source.load() })
      }
    }
  }
}
