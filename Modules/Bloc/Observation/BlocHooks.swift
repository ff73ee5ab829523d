/// The methods of a ``BlocObserver``, as a set: what an observer wants called.
///
/// ```swift
/// var hooks: BlocHooks { [.change, .error] }
/// ```
public struct BlocHooks: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) { self.rawValue = rawValue }

  // Computed, not `static let`: another module reads a `static let` through an accessor call,
  // a computed one is inlined (cross-module optimisation), and the inline event path tests
  // several hooks per event.

  /// ``BlocObserver/onCreate(_:)``.
  public static var create: BlocHooks { BlocHooks(rawValue: 1 << 0) }
  /// ``BlocObserver/onEvent(_:event:)``.
  public static var event: BlocHooks { BlocHooks(rawValue: 1 << 1) }
  /// ``BlocObserver/onChange(_:change:)``.
  public static var change: BlocHooks { BlocHooks(rawValue: 1 << 2) }
  /// ``BlocObserver/onTransition(_:transition:)``.
  public static var transition: BlocHooks { BlocHooks(rawValue: 1 << 3) }
  /// ``BlocObserver/onError(_:error:)``.
  public static var error: BlocHooks { BlocHooks(rawValue: 1 << 4) }
  /// ``BlocObserver/onDone(_:event:outcome:)``.
  public static var done: BlocHooks { BlocHooks(rawValue: 1 << 5) }
  /// ``BlocObserver/onClose(_:)``.
  public static var close: BlocHooks { BlocHooks(rawValue: 1 << 6) }

  /// Every method.
  public static var all: BlocHooks {
    [.create, .event, .change, .transition, .error, .done, .close]
  }
}
