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
@inline(__always)
package func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}

/// Human-readable text for an errno value, e.g. "Connection refused".
package func errnoDescription(_ code: Int32) -> String {
  String(cString: strerror(code))
}
