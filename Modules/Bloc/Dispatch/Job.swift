/// The records of queued and running events, without the bloc's types: an event is kept by
/// its emitter (a `JobEmitter`, made when the event is admitted, with the handler that will
/// run it), so that queues of jobs and the lock's records have a layout and runtime metadata
/// of their own, and the bloc's code, compiled once for every event and state type, handles
/// them with no generic metadata lookup per event.

/// An admitted event, waiting or running.
struct Job: @unchecked Sendable {  // immutable; holds a JobEmitter, Sendable
  let id: UInt64
  /// Nil for a job run inline on an unpersisted bloc: its outcome is known on return, so the
  /// caller gets a shared resolved receipt instead (``EventReceipt/resolved(_:)``).
  let receipt: EventReceipt?
  /// The job's `JobEmitter<Event, State>` (``Bloc/emitter(of:)``): `AnyObject`, whose
  /// runtime metadata is a constant, where an existential with `Sendable` is looked up.
  let emitter: AnyObject
}

/// The event that is running now on a lane: its runner, and its emitter, which a
/// cancellation closes.
struct Running: @unchecked Sendable {  // immutable; a JobEmitter, Sendable
  let emitter: AnyObject
  let runner: UInt64

  init(emitter: AnyObject, runner: UInt64) {
    self.emitter = emitter
    self.runner = runner
  }
}

/// A queue of events handled one at a time, in order, by one runner: the bloc's order, or
/// an `.independent` kind's own.
struct Lane {
  var queue = FIFO<Job>()
  var current: Running?
  var runner: Runner?

  init() {}
}

/// A job taken by its lane's runner, to run now.
struct Started: Sendable {
  let job: Job
  /// The runner that owns the lane while this job runs.
  let runner: UInt64
  /// Whether it came from its kind's own lane (`.independent`) rather than the bloc's order.
  let ownLane: Bool
}

/// What `admit` decided besides queueing: jobs to conclude once the lock is released (since
/// concluding runs hooks), and a job the caller must run itself.
struct Admission {
  var concluded: [(Job, EventOutcome)] = []
  var inline: Started?
  /// The bloc was closed or has no handler for the event.
  var refused = false
}

/// Who runs a lane while it is busy: a caller inline (`add` or `send`, no task), or a task.
struct Runner {
  let id: UInt64
  var task: Task<Void, Never>?

  init(id: UInt64, task: Task<Void, Never>?) {
    self.id = id
    self.task = task
  }
}
