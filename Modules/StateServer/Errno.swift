import Glibc

/// Human-readable text for an errno value, e.g. "Connection refused".
func errnoDescription(_ code: Int32) -> String {
  String(cString: strerror(code))
}

/// Retries a system call while it fails with EINTR.
@inline(__always)
func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}

/// Marks a descriptor non-blocking and close-on-exec (for descriptors we did not create).
func makeNonBlockingCloseOnExec(_ fd: Int32) -> Bool {
  let flags = fcntl(fd, F_GETFL)
  guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
  let fdFlags = fcntl(fd, F_GETFD)
  return fdFlags >= 0 && fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) == 0
}
