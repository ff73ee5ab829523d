/// Why a search event was refused or failed.
///
/// ```swift
/// if case .failed(let error) = await search.send(.toggleMark(9)) {
///   print(error)  // no app with id 9 in the results or the marks; search for it first
/// }
/// ```
public enum AppSearchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `toggleMark` named an id that is neither in the results nor marked.
  case unknownApp(Int64)

  public var description: String {
    switch self {
    case .unknownApp(let id):
      return "no app with id \(id) in the results or the marks; search for it first, then "
        + "mark an id from the results"
    }
  }
}
