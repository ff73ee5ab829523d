/// Values of one type in a buffer of their own, oldest first: a persister's states of changes
/// waiting for a write. The persister's code runs unspecialised (its state type is unknown
/// where it is compiled): an `Array` of its states would go through generic collection
/// algorithms there, and even a generic buffer type needs its runtime metadata looked up, while
/// this type is not generic and its methods touch the values through their type's value
/// witnesses alone. Its owner passes the same type to every call and frees it with
/// ``free(_:)``.
struct StateBuffer: ~Copyable {
  private var base: UnsafeMutableRawPointer?
  /// How many values there are, from the start of the buffer.
  private(set) var count = 0
  private var capacity = 0

  init() {}

  @inline(__always)
  private func values<Value>(_: Value.Type) -> UnsafeMutablePointer<Value> {
    base.unsafelyUnwrapped.assumingMemoryBound(to: Value.self)
  }

  /// Where the value at `index` lies (valid until the buffer next changes).
  func address<Value>(at index: Int, as type: Value.Type) -> UnsafeRawPointer {
    precondition(index >= 0 && index < count, "index out of range")
    return UnsafeRawPointer(values(type) + index)
  }

  @inline(__always)
  mutating func append<Value>(_ value: Value) {
    if count == capacity { grow(Value.self) }
    (values(Value.self) + count).initialize(to: value)
    count += 1
  }

  /// Appends a copy of the value at `source`.
  @inline(__always)
  mutating func append<Value>(copying source: UnsafePointer<Value>) {
    if count == capacity { grow(Value.self) }
    (values(Value.self) + count).initialize(to: source.pointee)
    count += 1
  }

  /// The value at `index`, copied.
  func value<Value>(at index: Int, as type: Value.Type) -> Value {
    address(at: index, as: type).assumingMemoryBound(to: Value.self).pointee
  }

  /// Removes the last value and returns it; nil when there is none.
  mutating func popLast<Value>(as type: Value.Type) -> Value? {
    guard count > 0 else { return nil }
    count -= 1
    return (values(type) + count).move()
  }

  /// Removes the first `count` values, moving the first `moved` of them to the end of
  /// `target`; the values after them move to the front.
  mutating func removeFirst<Value>(
    _ count: Int, moving moved: Int = 0, to target: inout StateBuffer, as type: Value.Type
  ) {
    precondition(moved <= count && count <= self.count, "count out of range")
    guard count > 0 else { return }
    let values = values(type)
    for index in 0..<moved { target.append((values + index).move()) }
    (values + moved).deinitialize(count: count - moved)
    values.moveInitialize(from: values + count, count: self.count - count)
    self.count -= count
  }

  /// Trades values and storage with `other`.
  mutating func swap(with other: inout StateBuffer) {
    (base, other.base) = (other.base, base)
    (count, other.count) = (other.count, count)
    (capacity, other.capacity) = (other.capacity, capacity)
  }

  /// Removes every value, keeping the buffer.
  mutating func removeAll<Value>(_ type: Value.Type) {
    guard count > 0 else { return }
    // A trivial state (plain numbers and flags, the usual one) has nothing to destroy: the
    // flag is read here, where the stdlib's generic deinitialize(count:) is a call of about
    // 37 instructions to find the same.
    if !_isPOD(Value.self) { values(type).deinitialize(count: count) }
    count = 0
  }

  /// Removes every value and gives the buffer back.
  mutating func free<Value>(_ type: Value.Type) {
    removeAll(type)
    base?.deallocate()
    base = nil
    capacity = 0
  }

  private mutating func grow<Value>(_ type: Value.Type) {
    let larger = max(8, capacity * 2)
    let fresh = UnsafeMutablePointer<Value>.allocate(capacity: larger)
    if base != nil {
      fresh.moveInitialize(from: values(type), count: count)
      base?.deallocate()
    }
    base = UnsafeMutableRawPointer(fresh)
    capacity = larger
  }
}
