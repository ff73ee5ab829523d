/// The members of a JSON object, in insertion order.
///
/// Lookup is a linear scan for small objects (the common case on the wire) and
/// switches to a hash index once an object grows past `indexThreshold` members.
/// Assigning to an existing key keeps its position; assigning nil removes it.
///
/// Equality ignores order, as JSON object semantics do: `{"a":1,"b":2}` equals
/// `{"b":2,"a":1}`. Iteration, serialization and `keys` follow insertion order.
///
/// ```swift
/// var object: JSONObject = ["b": 1, "a": 2]
/// object["c"] = "x"
/// object.keys             // ["b", "a", "c"]
/// object["b"] = nil
/// for (key, value) in object { print(key, value) }  // a 2, c "x"
/// ```
public struct JSONObject: Sendable {
  /// One member: a key and its value.
  public typealias Element = (key: String, value: JSON)

  /// Above this many members, lookups go through a dictionary index.
  static let indexThreshold = 12

  /// One stored member. A struct rather than the `Element` tuple so that
  /// copies are specialized instead of going through generic tuple witnesses.
  struct Member {
    var key: String
    var value: JSON
  }

  /// The members, with unique keys.
  private(set) var entries: [Member]
  /// Key → position in `entries`; only kept for objects larger than `indexThreshold`.
  private var index: [String: Int]?

  /// An empty object.
  public init() {
    entries = []
    index = nil
  }

  /// Members from key-value pairs in order; a repeated key keeps its first
  /// position and its last value.
  public init(_ pairs: some Sequence<(String, JSON)>) {
    self.init()
    for (key, value) in pairs { updateValue(value, forKey: key) }
  }

  /// Members whose keys are known to be distinct (as the parser guarantees).
  init(uniqueEntries: [Member]) {
    entries = uniqueEntries
    index = nil
    if entries.count > Self.indexThreshold { rebuildIndex() }
  }

  /// The values of `names` (nil where absent) and the object without them,
  /// in one pass and one allocation.
  package func extracting(_ names: [String]) -> (values: [JSON?], rest: JSONObject) {
    var values = [JSON?](repeating: nil, count: names.count)
    var rest: [Member] = []
    rest.reserveCapacity(entries.count)
    for entry in entries {
      if let slot = names.firstIndex(of: entry.key) {
        values[slot] = entry.value
      } else {
        rest.append(entry)
      }
    }
    return (values, JSONObject(uniqueEntries: rest))
  }

  /// The keys, in order.
  public var keys: [String] { entries.map(\.key) }

  /// The values, in key order.
  public var values: [JSON] { entries.map(\.value) }

  /// The position of `key`, or nil.
  public func index(forKey key: String) -> Int? {
    if let index { return index[key] }
    return entries.firstIndex { $0.key == key }
  }

  /// The value for `key`, or nil. Setting nil removes the member.
  public subscript(key: String) -> JSON? {
    get { index(forKey: key).map { entries[$0].value } }
    set {
      if let newValue {
        updateValue(newValue, forKey: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Sets the value for `key` (appending a new member at the end) and returns
  /// the previous value, if any.
  @discardableResult
  public mutating func updateValue(_ value: JSON, forKey key: String) -> JSON? {
    if let position = index(forKey: key) {
      let old = entries[position].value
      entries[position].value = value
      return old
    }
    entries.append(Member(key: key, value: value))
    if index != nil {
      index![key] = entries.count - 1
    } else if entries.count > Self.indexThreshold {
      rebuildIndex()
    }
    return nil
  }

  /// Removes the member for `key` and returns its value, if any. O(n).
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSON? {
    guard let position = index(forKey: key) else { return nil }
    let old = entries.remove(at: position).value
    if index != nil { rebuildIndex() }
    return old
  }

  private mutating func rebuildIndex() {
    guard entries.count > Self.indexThreshold else {
      index = nil
      return
    }
    var map = [String: Int](minimumCapacity: entries.count)
    for (position, entry) in entries.enumerated() { map[entry.key] = position }
    index = map
  }
}

extension JSONObject: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { entries.count }
  public subscript(position: Int) -> Element {
    let member = entries[position]
    return (member.key, member.value)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Keys keep their source order; a repeated key keeps its first position and
  /// its last value.
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self.init(elements)
  }
}

extension JSONObject: Hashable {
  /// Same members with equal values, in any order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
  }

  /// Order-independent, to agree with `==`.
  public func hash(into hasher: inout Hasher) {
    var combined: UInt = 0
    for member in entries {
      var memberHasher = Hasher()
      memberHasher.combine(member.key)
      memberHasher.combine(member.value)
      combined &+= UInt(bitPattern: memberHasher.finalize())
    }
    hasher.combine(entries.count)
    hasher.combine(combined)
  }
}

extension JSONObject: CustomStringConvertible {
  /// The compact serialization, e.g. `{"a":1}`.
  public var description: String { JSON.object(self).serializedString() }
}
