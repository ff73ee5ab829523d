import Glibc

/// Linux-only libc entry points that Swift's Glibc module does not export
/// (its umbrella header lacks <sys/epoll.h>, <sys/eventfd.h> and the GNU `accept4`).
///
/// The package may not add a C shim target, so they are looked up once with
/// `dlsym` and called through correctly typed C function pointers.
enum LinuxSymbols {
  typealias EpollCreate1 = @Sendable @convention(c) (Int32) -> Int32
  typealias EpollCtl =
    @Sendable @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) ->
    Int32
  typealias EpollWait =
    @Sendable @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) ->
    Int32
  typealias EventFD = @Sendable @convention(c) (UInt32, Int32) -> Int32
  typealias Accept4 =
    @Sendable @convention(c) (
      Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
    ) -> Int32

  static let epollCreate1 = resolve("epoll_create1", as: EpollCreate1.self)
  static let epollCtl = resolve("epoll_ctl", as: EpollCtl.self)
  static let epollWait = resolve("epoll_wait", as: EpollWait.self)
  static let eventfd = resolve("eventfd", as: EventFD.self)
  static let accept4 = resolve("accept4", as: Accept4.self)

  // Values from the Linux UAPI headers; identical on every Linux architecture.
  static let epollIn: UInt32 = 0x001
  static let epollOut: UInt32 = 0x004
  static let epollErr: UInt32 = 0x008
  static let epollHup: UInt32 = 0x010
  static let epollCtlAdd: Int32 = 1
  static let epollCtlDel: Int32 = 2
  static let epollCtlMod: Int32 = 3
  /// EPOLL_CLOEXEC and EFD_CLOEXEC are defined as O_CLOEXEC.
  static let closeOnExec: Int32 = O_CLOEXEC
  /// EFD_NONBLOCK is defined as O_NONBLOCK.
  static let nonBlocking: Int32 = O_NONBLOCK

  /// send(2)/recv(2) flags: never raise SIGPIPE, never block (even on a blocking fd).
  static let sendFlags = Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
  static let receiveFlags = Int32(MSG_DONTWAIT)

  private static func resolve<Function>(_ name: String, as type: Function.Type) -> Function {
    // dlopen(nil) is the global symbol scope, which includes libc.
    guard let scope = dlopen(nil, RTLD_NOW), let symbol = dlsym(scope, name) else {
      fatalError("libc symbol \(name) is missing; StateServer needs Linux glibc")
    }
    return unsafeBitCast(symbol, to: Function.self)
  }
}
