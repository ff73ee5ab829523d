import Glibc

/// A thin owner of one epoll instance and its event buffer. Used by the loop thread only.
///
/// `struct epoll_event` is packed on x86_64 (12 bytes) but naturally aligned elsewhere
/// (16 bytes), and Swift cannot declare packed structs, so events are read and written
/// as raw bytes at the ABI's offsets.
final class Epoll {
  #if arch(x86_64)
    private static let eventStride = 12
    private static let dataOffset = 4
  #else
    private static let eventStride = 16
    private static let dataOffset = 8
  #endif

  let fd: Int32
  private let events: UnsafeMutableRawPointer
  private let capacity: Int

  init(capacity: Int = 256) throws {
    let fd = LinuxSymbols.epollCreate1(LinuxSymbols.closeOnExec)
    guard fd >= 0 else { throw ServerError.systemCall("epoll_create1", path: nil, errno: errno) }
    self.fd = fd
    self.capacity = capacity
    events = .allocate(byteCount: capacity * Self.eventStride, alignment: 8)
  }

  deinit {
    events.deallocate()
    Glibc.close(fd)
  }

  /// Registers `descriptor`; its own number is the event's data, so events map back to it.
  func add(_ descriptor: Int32, events mask: UInt32) -> Bool {
    control(LinuxSymbols.epollCtlAdd, descriptor, mask)
  }

  func modify(_ descriptor: Int32, events mask: UInt32) -> Bool {
    control(LinuxSymbols.epollCtlMod, descriptor, mask)
  }

  func remove(_ descriptor: Int32) {
    _ = control(LinuxSymbols.epollCtlDel, descriptor, 0)
  }

  /// Waits for events; `timeoutMilliseconds` of -1 waits forever. Returns the event count.
  func wait(timeoutMilliseconds: Int32) -> Int {
    let count = LinuxSymbols.epollWait(fd, events, Int32(capacity), timeoutMilliseconds)
    return count < 0 ? 0 : Int(count)  // EINTR: the caller just loops again
  }

  /// The descriptor and event mask of the `index`-th event of the last `wait`.
  func event(at index: Int) -> (descriptor: Int32, mask: UInt32) {
    let base = events + index * Self.eventStride
    let mask = base.loadUnaligned(as: UInt32.self)
    let data = base.loadUnaligned(fromByteOffset: Self.dataOffset, as: UInt64.self)
    return (Int32(truncatingIfNeeded: data), mask)
  }

  private func control(_ operation: Int32, _ descriptor: Int32, _ mask: UInt32) -> Bool {
    var raw: (UInt64, UInt64) = (0, 0)  // 16 zeroed bytes cover both layouts
    return withUnsafeMutableBytes(of: &raw) { bytes in
      bytes.storeBytes(of: mask, toByteOffset: 0, as: UInt32.self)
      bytes.storeBytes(
        of: UInt64(UInt32(bitPattern: descriptor)), toByteOffset: Self.dataOffset, as: UInt64.self)
      return LinuxSymbols.epollCtl(fd, operation, descriptor, bytes.baseAddress) == 0
    }
  }
}
