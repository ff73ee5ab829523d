/// A first-in first-out queue with O(1) amortised push and pop.
struct FIFO<Element> {
  private var items: [Element] = []
  private var head = 0

  init() {}

  var isEmpty: Bool { head == items.count }

  mutating func push(_ item: Element) { items.append(item) }

  mutating func pop() -> Element? {
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 64, head * 2 > items.count {
      items.removeFirst(head)
      head = 0
    }
    return item
  }

  mutating func takeAll() -> [Element] {
    let rest = Array(items[head...])
    items.removeAll()
    head = 0
    return rest
  }

  func contains(where matches: (Element) -> Bool) -> Bool {
    items[head...].contains(where: matches)
  }

  /// Removes and returns, in order, the elements that match.
  mutating func removeAll(where matches: (Element) -> Bool) -> [Element] {
    var removed: [Element] = []
    var kept: [Element] = []
    for item in items[head...] {
      if matches(item) { removed.append(item) } else { kept.append(item) }
    }
    items = kept
    head = 0
    return removed
  }
}
