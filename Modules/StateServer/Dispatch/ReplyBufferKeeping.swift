extension [UInt8] {
  /// Whether a reply buffer is small enough to keep for the next replies once emptied: one
  /// that grew for a huge state (over 64 KiB) is let go, not held for the connection's life.
  var isSmallEnoughToKeep: Bool { capacity <= 1 << 16 }
}
