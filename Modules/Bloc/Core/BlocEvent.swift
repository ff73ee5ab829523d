/// An event a ``Bloc`` handles. Handlers are registered per ``kind``.
///
/// An enum without payloads is its own kind:
/// ```swift
/// enum CounterEvent: BlocEvent { case increment, decrement }
/// ```
/// An enum with payloads names its kinds:
/// ```swift
/// enum SearchEvent: BlocEvent {
///   case search(String), clear
///   enum Kind { case search, clear }
///   var kind: Kind {
///     switch self {
///     case .search: .search
///     case .clear: .clear
///     }
///   }
/// }
/// ```
public protocol BlocEvent: Sendable {
  associatedtype Kind: Hashable & Sendable = Self
  /// Which handler takes this event.
  var kind: Kind { get }
}

extension BlocEvent where Kind == Self, Self: Hashable {
  public var kind: Self { self }
}
