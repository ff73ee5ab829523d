/// Package ids that stay the same across runs and machines.
///
/// Swift's `Hasher` is seeded per process, so it cannot be used for ids that
/// clients keep (marks, saved state). 64-bit FNV-1a is fixed and cheap.
///
/// ```swift
/// StableID.of("bash")  // the same positive Int64 on every run, at most 2^53 − 1
/// ```
/// Ids keep 53 bits of the hash, so JSON clients that read numbers as doubles (JavaScript,
/// jq 1.6) read them exactly. Version 1 kept 63 bits: the same hash, so an old id masked to 53
/// bits is the new one (see ``SavedMarks``).
enum StableID {
  static func of(_ name: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    // Positive and at most 2^53 − 1; 0 is kept free as "no id".
    let id = Int64(bitPattern: hash & UInt64(App.maximumID))
    return id == 0 ? 1 : id
  }
}
