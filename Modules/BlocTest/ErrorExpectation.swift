@_spi(Testing) import BlocCore

/// Describes an error a bloc test expects.
///
/// ```swift
/// errors: [.equals(CounterError.aboveMaximum(10))]
/// errors: [.handlerFailure(CounterError.self)]
/// ```
public struct ErrorExpectation: Sendable, CustomStringConvertible {
  public let description: String
  let matches: @Sendable (any Error) -> Bool

  public init(_ description: String, matches: @escaping @Sendable (any Error) -> Bool) {
    self.description = description
    self.matches = matches
  }

  /// An error equal to `expected`, reported directly or as the cause of a handler failure.
  public static func equals<E: Error & Equatable & Sendable>(_ expected: E) -> ErrorExpectation {
    ErrorExpectation("\(expected)") { error in
      (error as? E ?? (error as? any CausedByEvent)?.cause as? E) == expected
    }
  }

  /// Any error of type `E`, reported directly or as the cause of a handler failure.
  public static func type<E: Error>(_ type: E.Type) -> ErrorExpectation {
    ErrorExpectation("any \(E.self)") { error in
      error is E || (error as? any CausedByEvent)?.cause is E
    }
  }

  /// An error whose description contains `text`.
  public static func message(containing text: String) -> ErrorExpectation {
    ErrorExpectation("an error mentioning \"\(text)\"") { error in
      String(describing: error).contains(text)
    }
  }

  /// Any error at all.
  public static let any = ErrorExpectation("any error") { _ in true }
}

/// Lets expectations look through `HandlerFailure` to the error a handler threw.
public protocol CausedByEvent {
  var cause: any Error { get }
}

extension HandlerFailure: CausedByEvent {
  public var cause: any Error { error }
}
