import Wire

/// What changed between two states, one line per added, removed or changed member, with its
/// path: what `statectl monitor --diff`, `history` and `replay` print, like TCA's
/// `_printChanges()` but one line each.
///
/// Objects are compared member by member and arrays element by element, so a change deep in a
/// state names its place (`marks[1].name`) instead of repeating the whole state.
///
/// ```swift
/// StateDiff.changes(from: ["count": 4, "tag": "a"], to: ["count": 5, "new": true])
/// // [.changed("count", 4, 5), .added("new", true), .removed("tag", "a")]
/// StateDiff.lines(of: StateDiff.changes(from: ["count": 4], to: ["count": 5]))
/// // ["~ count: 4 → 5"]
/// ```
enum StateDiff {
  /// One difference at `path` (empty for the whole value).
  enum Change: Equatable, Sendable {
    case added(String, JSON)
    case removed(String, JSON)
    case changed(String, JSON, JSON)

    var path: String {
      switch self {
      case .added(let path, _), .removed(let path, _), .changed(let path, _, _): path
      }
    }
  }

  /// The differences from `before` to `after`, in the order of `after`'s members (removed
  /// members after the others of their object); empty when they are equal.
  static func changes(from before: JSON, to after: JSON) -> [Change] {
    var changes: [Change] = []
    collect(before, after, path: "", into: &changes)
    return changes
  }

  private static func collect(
    _ before: JSON, _ after: JSON, path: String, into changes: inout [Change]
  ) {
    if before == after { return }
    switch (before, after) {
    case (.object(let old), .object(let new)):
      for (key, value) in new {
        let member = memberPath(path, key)
        if let previous = old[key] {
          collect(previous, value, path: member, into: &changes)
        } else {
          changes.append(.added(member, value))
        }
      }
      for (key, value) in old where new[key] == nil {
        changes.append(.removed(memberPath(path, key), value))
      }
    case (.array(let old), .array(let new)):
      for index in 0..<max(old.count, new.count) {
        let element = path + "[\(index)]"
        // `.none`, not `nil`: JSON is expressible by the nil literal (as null).
        let previous: JSON? = index < old.count ? .some(old[index]) : .none
        let value: JSON? = index < new.count ? .some(new[index]) : .none
        switch (previous, value) {
        case (let previous?, let value?): collect(previous, value, path: element, into: &changes)
        case (nil, let value?): changes.append(.added(element, value))
        case (let previous?, nil): changes.append(.removed(element, previous))
        case (nil, nil): break
        }
      }
    default:
      changes.append(.changed(path, before, after))
    }
  }

  /// `a.b` for a plain name, `a["odd key"]` for any other.
  static func memberPath(_ path: String, _ key: String) -> String {
    let plain =
      !key.isEmpty
      && key.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D
      }
    if plain { return path.isEmpty ? key : path + "." + key }
    return path + "[" + JSON.string(key).serializedString() + "]"
  }

  /// ANSI colours for a terminal: added green, removed red, changed yellow.
  enum Colour: String {
    case green = "\u{1B}[32m"
    case red = "\u{1B}[31m"
    case yellow = "\u{1B}[33m"
    static let reset = "\u{1B}[0m"
  }

  /// One line per change: `+ path: value`, `- path: value`, `~ path: old → new`; coloured
  /// when `colour`. The whole value (empty path) is written `(state)`.
  static func lines(of changes: [Change], colour: Bool = false) -> [String] {
    changes.map { change in
      let path = change.path.isEmpty ? "(state)" : change.path
      let (text, tint): (String, Colour)
      switch change {
      case .added(_, let value): (text, tint) = ("+ \(path): \(shown(value))", .green)
      case .removed(_, let value): (text, tint) = ("- \(path): \(shown(value))", .red)
      case .changed(_, let old, let new):
        (text, tint) = ("~ \(path): \(shown(old)) → \(shown(new))", .yellow)
      }
      return colour ? tint.rawValue + text + Colour.reset : text
    }
  }

  /// The changes as JSON, for `--json` output:
  /// `[{"path":"count","op":"changed","from":4,"to":5}, {"path":"tag","op":"added","to":"a"}]`.
  static func json(_ changes: [Change]) -> JSON {
    .array(
      changes.map { change in
        var object: JSONObject = ["path": .string(change.path)]
        switch change {
        case .added(_, let value):
          object["op"] = "added"
          object["to"] = value
        case .removed(_, let value):
          object["op"] = "removed"
          object["from"] = value
        case .changed(_, let old, let new):
          object["op"] = "changed"
          object["from"] = old
          object["to"] = new
        }
        return .object(object)
      })
  }

  /// A value on one line: scalars as `HumanFormat` shows them, containers as compact JSON.
  private static func shown(_ value: JSON) -> String {
    HumanFormat.scalarOrCompact(value)
  }
}
