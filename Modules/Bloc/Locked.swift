#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex`, whose futex-based lock ThreadSanitizer cannot see
/// on Linux (it reports every access under it as a race), so `swift test --sanitize=thread`
/// stays meaningful. Not recursive: never call back into the same lock from `body`.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// ```
public final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched between pthread_mutex_lock and unlock.
  private var value: Value
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  public init(_ value: Value) {
    self.value = value
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable @inline(__always)
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body(&valueStorage)
  }

  @usableFromInline var valueStorage: Value {
    _read { yield value }
    _modify { yield &value }
  }
  @usableFromInline func lock() { pthread_mutex_lock(mutex) }
  @usableFromInline func unlock() { pthread_mutex_unlock(mutex) }
}
