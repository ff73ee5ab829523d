import Testing
import Wire

/// `hasSameBytes(as:)` and `ShortName`: names compared as loaded words (the first and last
/// 8, 4, 2 or 1 bytes) find exactly the same bytes, whatever the length and whichever byte
/// differs.
@Suite struct ByteNameTests {
  @Test func theSameBytesAndNoOthers() {
    for count in 0...40 {
      let name = (0..<count).map { UInt8(0x61 + $0 % 26) }
      let short = ShortName(name)
      func matches(_ bytes: [UInt8]) -> (Bool, Bool) {
        bytes.withUnsafeBytes { bytes in
          (
            bytes.hasSameBytes(as: name),
            short.spells(bytes) { bytes.hasSameBytes(as: name) }
          )
        }
      }
      #expect(matches(name) == (true, true), "\(count)")
      for index in name.indices {
        var other = name
        other[index] ^= 0x20
        #expect(matches(other) == (false, false), "\(count) at \(index)")
      }
      #expect(matches(name + [0x61]) == (false, false), "\(count) + 1")
      if count > 0 { #expect(matches(Array(name.dropLast())) == (false, false), "\(count) - 1") }
    }
  }
}
