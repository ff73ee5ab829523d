#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Retries a system call while it fails with EINTR (a signal arrived before it did anything).
///
/// The package's one EINTR loop: every blocking or non-blocking call that can be interrupted
/// goes through it, so no call site spells its own `continue`.
///
/// ```swift
/// let count = retryingOnInterrupt { recv(fd, buffer, size, 0) }
/// ```
///
/// For calls that return a count (`ssize_t`). Not generic over `BinaryInteger`: called from
/// other modules, a generic body is not specialised there, and the daemon's every `recv` and
/// `send` then compared and converted its result through protocol witnesses. Inlinable: else
/// each call goes through the function and a closure context's thunk, twice per request.
@inlinable
package func retryingOnInterrupt(_ call: () -> Int) -> Int {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}

/// The same for calls that return an `int` (`open`, `poll`,
/// `flock`, `waitpid`, …).
package func retryingOnInterrupt(_ call: () -> Int32) -> Int32 {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}

/// Human-readable text for an errno value, e.g. "Connection refused".
package func errnoDescription(_ code: Int32) -> String {
  String(cString: strerror(code))
}
