import Glibc

/// Marks a descriptor non-blocking and close-on-exec (for descriptors we did not create).
func makeNonBlockingCloseOnExec(_ fd: Int32) -> Bool {
  let flags = fcntl(fd, F_GETFL)
  guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
  let fdFlags = fcntl(fd, F_GETFD)
  return fdFlags >= 0 && fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) == 0
}
