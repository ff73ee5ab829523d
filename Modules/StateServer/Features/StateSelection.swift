import Wire

/// A part of a state named by a path of member names separated by `.` (`count`, `a.b`): what
/// `watch … select` pushes, only when it changed.
///
/// ```swift
/// let selection = try StateSelection(parsing: "count")
/// selection.value(in: ["count": 3])  // 3
/// selection.value(in: [:])           // null: a missing member selects null
/// ```
struct StateSelection: Sendable, Equatable {
  /// The path as the client wrote it.
  let text: String
  let members: [String]

  /// Throws when `text` is empty or has an empty member name.
  init(parsing text: String) throws(WireError) {
    let members = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !text.isEmpty, !members.contains(where: \.isEmpty) else {
      throw WireError(
        .invalidField,
        "field 'select' must be member names separated by '.', like \"count\" or \"a.b\"; "
          + "got \"\(text.prefix(64))\"")
    }
    self.text = text
    self.members = members
  }

  /// The selected value; null where a member is missing or a value is not an object.
  func value(in state: JSON) -> JSON {
    var current = state
    for member in members {
      guard case .object(let object) = current, let next = object[member] else { return .null }
      current = next
    }
    return current
  }

  /// Whether the first member names a member of `state` (checked when a watch starts, so a
  /// misspelt path is refused instead of selecting null forever).
  func isPresent(in state: JSON) -> Bool {
    guard case .object(let object) = state, let first = members.first else { return false }
    return object[first] != nil
  }
}
