import BlocCore

/// The work gathered for the journal's next write: records, their completions and the staged
/// blocs whose states go into it, moved between the queue's lock and the writer.
extension JournalStorage {
  struct Batch {
    /// The batch's records, one after another: staged blocs write their values straight in,
    /// after the header ``JournalFormat`` completes once each value is there.
    var records = StagedValues()
    /// The records, a run of them per change or staged bloc: their key once per run.
    var runs: [Run] = []
    var completions: [@Sendable ((any Error)?) -> Void] = []
    /// Blocs whose newest state goes into this batch, taken when it is written.
    var staged: [any StagedState] = []
    /// Those whose states were taken into it: each told of the batch's end after the
    /// `completions`. (Kept in the struct: a closure appended to `completions` alone would be
    /// wrapped in an allocated thunk.)
    var taken: [any StagedState] = []
    var writing = false
    /// The clients served in the turns committed into this batch (``commitBatch(connections:)``).
    var connections = 0
    /// How many clients the writer waits for before it takes this batch (0: it does not wait);
    /// the commit that brings `connections` there wakes it (``gathered``).
    var awaited = 0
    /// Keys of staged blocs found valid (``JournalStorage/validate(_:)``) by a writer of this
    /// batch: a bloc's key never changes, so it is checked when it first comes, not per batch.
    /// Kept when the batch is emptied; at most ``validKeysKept``.
    var validKeys: [String] = []
    static let validKeysKept = 16
    /// The key whose put header `records.prefix` holds (nil: another header), and the running
    /// checksum of that header's kind and key (``JournalFormat/headerSum(_:)``): a bloc's key
    /// comes back batch after batch, so its header is made and summed again only when another
    /// key or a change came between (about 500 instructions per batch at one client).
    var prefixKey: String?
    var prefixSum: UInt32 = 0

    var isEmpty: Bool { completions.isEmpty && staged.isEmpty }

    /// Records one after another under one key: values `records` of ``StagedValues/values``
    /// (one per record: a removal's is empty).
    struct Run {
      let key: String
      let removal: Bool
      let records: Range<Int>
    }

    /// How many records the batch holds.
    var recordCount: Int { records.values.count }

    /// Adds the record of a change: `value` stored under `key`, or `key` removed when nil.
    mutating func add(_ key: String, _ value: [UInt8]?) {
      JournalFormat.header(value == nil ? .remove : .put, key: key, into: &records.prefix)
      prefixKey = nil
      let first = records.values.count
      let start = records.beginValue()
      if let value { records.bytes.append(contentsOf: value) }
      records.endValue(from: start)
      seal(
        from: first, key: key, removal: value == nil,
        headerSum: JournalFormat.headerSum(records.prefix))
    }

    /// Takes `source`'s states into the batch, as records under its `key`; false when it had
    /// none any more.
    mutating func take(_ source: any StagedState, key: String) -> Bool {
      if prefixKey != key {
        JournalFormat.header(.put, key: key, into: &records.prefix)
        prefixKey = key
        prefixSum = JournalFormat.headerSum(records.prefix)
      }
      let first = records.values.count
      guard source.takeForWrite(into: &records) else { return false }
      seal(from: first, key: key, headerSum: prefixSum)
      taken.append(source)
      return true
    }

    /// Completes the records of the values from `first` on, and notes them as a run.
    /// `headerSum`: the running checksum of the kind and key in front of each value.
    private mutating func seal(
      from first: Int, key: String, removal: Bool = false, headerSum: UInt32
    ) {
      let headerSize = records.prefix.count
      let values = records.values
      records.bytes.withUnsafeMutableBytes { bytes in
        for index in first..<values.count {
          JournalFormat.seal(
            value: values[index], headerSize: headerSize, headerSum: headerSum, in: bytes)
        }
      }
      runs.append(Run(key: key, removal: removal, records: first..<values.count))
    }

    /// Whether writing should start now for work just added (and marks it started).
    /// `held`: a ``JournalStorage/beginBatch()`` is open (`JournalStorage.holds`).
    mutating func startsWriting(held: Bool) -> Bool {
      guard !writing, !held else { return false }
      writing = true
      return true
    }

    /// The work gathered so far, to be written; this batch starts empty, in the lists of
    /// `written` (a batch written and emptied, moved out of it) when there is one.
    mutating func take(recycling written: inout Batch?) -> Batch {
      var next = written.take() ?? Batch()
      next.writing = true
      swap(&self, &next)
      return next
    }

    /// Keeps an emptied batch's lists for the next batch (moved out of `written`), if this one
    /// has none yet.
    mutating func recycle(_ written: inout Batch?) {
      guard isEmpty, records.bytes.capacity == 0, let written = written.take() else { return }
      let (writing, connections, awaited) = (self.writing, self.connections, self.awaited)
      self = written
      self.writing = writing
      self.connections = connections
      self.awaited = awaited
    }

    /// Empties the lists, keeping their storage (unless a huge batch grew them).
    mutating func empty() {
      let keep = records.bytes.capacity <= 1 << 20
      records.removeAll()
      runs.empty(keepingCapacity: keep)
      completions.empty(keepingCapacity: keep)
      staged.empty(keepingCapacity: keep)
      taken.empty(keepingCapacity: keep)
      connections = 0
    }
  }
}

extension Array {
  /// Removes every element, keeping the storage when `keep` is set. A batch's lists hold one
  /// element most of the time (one bloc, one change): that one goes by `removeLast()`, about
  /// 40 instructions, where `removeAll(keepingCapacity:)` takes Array's general
  /// replaceSubrange, about 160 even for one element (and 50 for none, so an empty list is
  /// left as it is).
  fileprivate mutating func empty(keepingCapacity keep: Bool) {
    if count == 1 {
      removeLast()
    } else if !isEmpty {
      removeAll(keepingCapacity: keep)
    }
  }
}
