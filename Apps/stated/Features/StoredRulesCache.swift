import Counter
import Synchronization

/// The counter's rules as of one stored settings state, kept so that each counter event reads
/// them with a few atomic loads instead of a trip to the settings bloc's lock
/// (``CounterRulesFromSettings``). They are kept against the sequence number under which that
/// state is the settings' current one (its own, or a rollback's after a refused change) and
/// used only while it is still the settings' newest (``BlocBase/newestSequence``): no stored
/// setting changes without a newer change first, so a setting stored since is seen at the
/// very next event, and a change still being stored or refused is never used.
///
/// A sequence lock: a writer marks the version odd, writes the values, then publishes the new
/// version; a reader that saw the same even version before and after reading the values has
/// read one writer's values whole.
final class StoredRulesCache: Sendable {
  /// The settings' sequence number << 3, bit 2: a minimum is set, bit 1: a maximum is set,
  /// bit 0: being written. Starts as a number no sequence reaches: nothing kept.
  private let version = Atomic<UInt64>(StoredRulesCache.nothingKept)
  private let step = Atomic<Int>(0)
  private let minimum = Atomic<Int>(0)
  private let maximum = Atomic<Int>(0)

  private static let nothingKept = UInt64.max &<< 1

  /// The rules kept for settings sequence `sequence`, if those are the ones kept.
  func rules(at sequence: UInt64) -> CounterRules? {
    let seen = version.load(ordering: .acquiring)
    guard seen & 1 == 0, seen >> 3 == sequence, seen != Self.nothingKept else { return nil }
    let rules = CounterRules(
      step: step.load(ordering: .relaxed),
      minimum: seen & 4 != 0 ? minimum.load(ordering: .relaxed) : nil,
      maximum: seen & 2 != 0 ? maximum.load(ordering: .relaxed) : nil)
    atomicMemoryFence(ordering: .acquiring)
    return version.load(ordering: .relaxed) == seen ? rules : nil
  }

  /// Keeps `rules` as those of settings sequence `sequence`, unless newer ones are kept or
  /// another caller is writing (then the next reader derives them again).
  func keep(_ rules: CounterRules, at sequence: UInt64) {
    let seen = version.load(ordering: .relaxed)
    guard seen & 1 == 0, seen == Self.nothingKept || seen >> 3 < sequence,
      version.compareExchange(
        expected: seen, desired: seen | 1, ordering: .acquiringAndReleasing
      ).exchanged
    else { return }
    atomicMemoryFence(ordering: .releasing)
    step.store(rules.step, ordering: .relaxed)
    minimum.store(rules.minimum ?? 0, ordering: .relaxed)
    maximum.store(rules.maximum ?? 0, ordering: .relaxed)
    let flags: UInt64 = (rules.minimum == nil ? 0 : 4) | (rules.maximum == nil ? 0 : 2)
    version.store(sequence << 3 | flags, ordering: .releasing)
  }
}
