#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes all of `bytes` with `write`, continuing after partial writes and EINTR.
///
/// The package's one write-all loop. `write` is given the bytes still to write and their offset
/// in `bytes` (for `pwrite`), and returns what write(2) returns. Returns false when a write
/// fails, with `errno` set (to EIO for a write that wrote nothing).
///
/// ```swift
/// writeAll(bytes) { rest, _ in send(fd, rest.baseAddress, rest.count, MSG_NOSIGNAL) }
/// ```
@inline(__always)
package func writeAll(
  _ bytes: UnsafeRawBufferPointer, _ write: (UnsafeRawBufferPointer, _ offset: Int) -> Int
) -> Bool {
  var done = 0
  while done < bytes.count {
    let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
    let count = retryingOnInterrupt { write(rest, done) }
    if count < 0 { return false }
    if count == 0 {
      errno = EIO
      return false
    }
    done += count
  }
  return true
}

/// Writes all of `bytes` to `fd` with write(2); see ``writeAll(_:_:)``.
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
  writeAll(bytes) { rest, _ in write(fd, rest.baseAddress, rest.count) }
}

/// Writes all of `text` to `fd` (standard output or error), giving up quietly when the reader
/// is gone: there is nowhere left to report that.
package func writeAll(_ fd: Int32, _ text: String) {
  var text = text
  text.withUTF8 { _ = writeAll(fd, UnsafeRawBufferPointer($0)) }
}
