import Testing

@testable import BlocJournal

/// A key's history lies in one byte ring, each value whole: values of every length, appended
/// one by one or a batch at a time, wrapping round the ring's end and growing it, come back
/// as a plain list of the newest `limit` would hold them.
@Suite struct RetainedValuesTests {
  /// Values of pseudo-random lengths (0 to 300 bytes, often alike, sometimes much longer),
  /// each filled with its own number so that a value overwritten by another shows.
  static func values(_ count: Int, seed: UInt64) -> [[UInt8]] {
    var state = seed
    return (0..<count).map { n in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let roll = Int(state >> 33)
      let length = roll % 7 == 0 ? roll % 301 : 100 + roll % 20
      return (0..<length).map { UInt8(truncatingIfNeeded: n &* 31 &+ $0) }
    }
  }

  @Test(arguments: [1, 2, 3, 16, 50])
  func keepsTheNewestValuesWhole(limit: Int) {
    for seed: UInt64 in [1, 2, 3] {
      var kept = RetainedValues(limit: limit)
      var model: [[UInt8]] = []
      for value in Self.values(400, seed: seed) {
        kept.append(value)
        model = Array((model + [value]).suffix(limit))
        #expect(kept.values.map(Array.init) == model, "limit \(limit), seed \(seed)")
        if kept.values.map(Array.init) != model { return }
      }
    }
  }

  @Test(arguments: [1, 4, 16])
  func keepsTheNewestOfABatch(limit: Int) {
    var kept = RetainedValues(limit: limit)
    var model: [[UInt8]] = []
    let all = Self.values(300, seed: 9)
    var start = 0
    var size = 1
    while start < all.count {
      let batch = all[start..<min(all.count, start + size)]
      // As in a journal's batch: the values one after another, with bytes between them.
      var bytes: [UInt8] = []
      var ranges: [Range<Int>] = []
      for value in batch {
        bytes += [0xEE, 0xEE]
        ranges.append(bytes.count..<(bytes.count + value.count))
        bytes += value
      }
      bytes.withUnsafeBytes { kept.append(ranges[...], of: $0) }
      model = Array((model + batch).suffix(limit))
      #expect(kept.values.map(Array.init) == model, "limit \(limit), batch of \(size)")
      start += size
      size = size % 23 + 1
    }
  }
}
