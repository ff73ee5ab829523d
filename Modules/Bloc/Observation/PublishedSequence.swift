import Synchronization

/// The sequence number of a bloc's newest change, for its subscribers to look at without the
/// state's lock (``BlocBase/newerPublished(than:)``), alone on its cache line.
///
/// A subscriber that caught up with a busy bloc keeps loading this word until the next change.
/// Kept among the bloc's own fields, it shared a cache line with the bloc's reference count,
/// which the adding thread changes several times per event (an emitter holds the bloc): every
/// such change then took the line back from the looking subscriber's core, a transfer between
/// processors per retain and per release. The padding around it keeps anything else off its
/// line (an object starts 16-byte aligned, its header in its first 16 bytes).
final class PublishedSequence: Sendable {
  private let before: Padding = (0, 0, 0, 0, 0, 0, 0)
  /// The sequence as of the bloc's newest change (or rollback): a hint for subscribers (the
  /// state's lock decides).
  let sequence: Atomic<UInt64>
  /// Whether a subscriber is looking for a newer state before parking.
  let looking = Atomic<Bool>(false)
  private let after: Padding = (0, 0, 0, 0, 0, 0, 0)

  init(_ sequence: UInt64) { self.sequence = Atomic(sequence) }

  /// 56 bytes.
  private typealias Padding = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
}
