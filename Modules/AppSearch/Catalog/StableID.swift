/// Package ids that stay the same across runs and machines.
///
/// Swift's `Hasher` is seeded per process, so it cannot be used for ids that
/// clients keep (marks, saved state). 64-bit FNV-1a is fixed and cheap.
///
/// ```swift
/// StableID.of("bash")  // the same positive Int64 on every run
/// ```
enum StableID {
  static func of(_ name: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    // Clear the sign bit so ids are positive; 0 is kept free as "no id".
    let positive = Int64(bitPattern: hash & 0x7fff_ffff_ffff_ffff)
    return positive == 0 ? 1 : positive
  }
}
