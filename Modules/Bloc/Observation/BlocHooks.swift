/// The methods of a ``BlocObserver``, as a set: what an observer wants called.
///
/// ```swift
/// var hooks: BlocHooks { [.change, .error] }
/// ```
public struct BlocHooks: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// ``BlocObserver/onCreate(_:)``.
  public static let create = BlocHooks(rawValue: 1 << 0)
  /// ``BlocObserver/onEvent(_:event:)``.
  public static let event = BlocHooks(rawValue: 1 << 1)
  /// ``BlocObserver/onChange(_:change:)``.
  public static let change = BlocHooks(rawValue: 1 << 2)
  /// ``BlocObserver/onTransition(_:transition:)``.
  public static let transition = BlocHooks(rawValue: 1 << 3)
  /// ``BlocObserver/onError(_:error:)``.
  public static let error = BlocHooks(rawValue: 1 << 4)
  /// ``BlocObserver/onDone(_:event:outcome:)``.
  public static let done = BlocHooks(rawValue: 1 << 5)
  /// ``BlocObserver/onClose(_:)``.
  public static let close = BlocHooks(rawValue: 1 << 6)

  /// Every method.
  public static let all: BlocHooks = [.create, .event, .change, .transition, .error, .done, .close]
}
