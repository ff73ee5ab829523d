#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`, in one allocation.
///
/// Package plumbing, not API of the state library (`package` access): the modules of this
/// package, and features added to it, use it; a user of the `Bloc` product does not see it.
///
/// Used instead of `Synchronization.Mutex`, whose futex-based lock ThreadSanitizer cannot see
/// on Linux (it reports every access under it as a race), so `swift test --sanitize=thread`
/// stays meaningful. Not recursive: never call back into the same lock from `body`.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// ```
@usableFromInline
package struct Locked<Value>:
  @unchecked Sendable  // the value is touched only under the mutex
{
  @usableFromInline let storage: LockedStorage<Value>

  package init(_ value: Value) {
    storage = LockedStorage.make(value)
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { value, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }
}

/// The value as the header and the mutex as the single element of a managed buffer.
@usableFromInline final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
  fileprivate static func make(_ value: Value) -> LockedStorage<Value> {
    let buffer = create(minimumCapacity: 1) { _ in value }
    buffer.withUnsafeMutablePointerToElements { mutex in
      #if canImport(Glibc)
        // Adaptive: a contended lock spins briefly before sleeping. The sections under these
        // locks are short, so a waiter (a subscriber reading the state while a handler emits)
        // usually gets the lock without a futex sleep and wake-up.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
      #else
        pthread_mutex_init(mutex, nil)
      #endif
    }
    // create(minimumCapacity:) makes an instance of the class it is called on.
    return buffer as! LockedStorage<Value>
  }

  deinit {
    _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
  }
}
