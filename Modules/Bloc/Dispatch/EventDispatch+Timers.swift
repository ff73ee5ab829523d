/// Debounce and throttle: a timer on the bloc's clock per paced kind, whose firing lets the
/// kind's pending event into the queue. Runs under the bloc's `dispatch` lock, like the rest of
/// EventDispatch.swift's bookkeeping.
extension Bloc {
  /// Starts a timer on the bloc's clock; when it fires, the kind's pending job is queued.
  func arm(
    _ kind: Event.Kind, after interval: Duration, _ dispatch: inout DispatchState
  )
    -> UInt64
  {
    let id = dispatch.nextID()
    let (deadline, sleep) = Self.deadline(on: clock, after: interval)
    let task = Task {
      do { try await sleep() } catch { return }
      self.fire(kind, timer: id)
    }
    dispatch.timers[id] = Timer(task: task, deadline: deadline)
    return id
  }

  static func deadline<C: Clock>(
    on clock: C, after interval: Duration
  ) -> (
    Deadline, sleep: @Sendable () async throws -> Void
  ) where C.Duration == Duration {
    let deadline = clock.now.advanced(by: interval)
    return (
      Deadline(
        isDue: { clock.now >= deadline }, remaining: { clock.now.duration(to: deadline) }),
      { try await clock.sleep(until: deadline, tolerance: nil) }
    )
  }

  /// A debounce or throttle timer fired: its pending job joins the queue (cancelling earlier
  /// events of its kind: handling is restartable); a throttle opens its next window.
  private func fire(_ kind: Event.Kind, timer id: UInt64) {
    let (admission, waiters) = withDispatch {
      dispatch -> (Admission, [CheckedContinuation<Bool, Never>]) in
      var admission = Admission()
      guard dispatch.timers.removeValue(forKey: id) != nil, var gate = dispatch.pacings[kind],
        gate.timer == id, let registration = dispatch.registration(for: kind)
      else { return (admission, dispatch.takeSettleWaiters()) }
      gate.timer = nil
      if let job = gate.pending {
        gate.pending = nil
        if case .throttle(let interval) = registration.transformer.strategy {
          gate.timer = arm(kind, after: interval(), &dispatch)
        }
        dispatch.pacings[kind] = gate
        cancel(kind, in: &dispatch, &admission, keepingPending: true)
        dispatch.main.queue.push(job)
        _ = startRunnerIfIdle(nil, &dispatch, inline: .never)
      } else {
        gate.windowOpen = false
        dispatch.pacings[kind] = gate
      }
      return (admission, dispatch.takeSettleWaiters())
    }
    for (job, outcome) in admission.concluded {
      conclude(Self.emitter(of: job).event, job.receipt, outcome)
    }
    for waiter in waiters { waiter.resume(returning: false) }
  }
}
