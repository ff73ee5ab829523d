/// A small seeded generator, so a failing case can be replayed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  mutating func text(from alphabet: String, length: ClosedRange<Int>) -> String {
    let letters = Array(alphabet)
    let count = Int.random(in: length, using: &self)
    return String((0..<count).map { _ in letters.randomElement(using: &self)! })
  }

  /// A random non-empty slice of `text`.
  mutating func piece(of text: String) -> String {
    let characters = Array(text)
    let start = Int.random(in: 0..<characters.count, using: &self)
    let end = Int.random(in: (start + 1)...characters.count, using: &self)
    return String(characters[start..<end])
  }
}
