/// One ``TimerQueue`` entry for all the deadlines of an owner (a connection's requests, a
/// channel's calls): armed for the earliest deadline it was shown, and armed again, when it
/// fires, for the earliest one still pending.
///
/// A timer entry per request cost a closure, two dictionary updates, a heap push, a clock read
/// and a libuv timer restart on every round trip. Here a request whose deadline is no earlier
/// than the armed one costs one comparison, and finishing it costs nothing: the entry fires at
/// the deadline it was armed for and finds nothing due, at most once per such deadline.
///
/// ```swift
/// deadlineCheck.watch(deadline, on: timers) { [self] in checkDeadlines() }
/// // in checkDeadlines():
/// deadlineCheck.fired()
/// let (due, next) = DeadlineCheck.sweep(pending.lazy.map { ($0.key, $0.value.deadline) })
/// ```
///
/// Loop-confined, as its ``TimerQueue`` is.
package struct DeadlineCheck {
    private var entry: TimerQueue.Handle?
    private var armedFor: MonotonicInstant?

    package init() {}

    /// Makes sure `check` runs by `deadline`: schedules it unless a check already comes no later.
    package mutating func watch(_ deadline: MonotonicInstant, on timers: TimerQueue, _ check: @escaping () -> Void) {
        if let armedFor, armedFor <= deadline { return }
        if let entry { timers.cancel(entry) }
        armedFor = deadline
        entry = timers.schedule(at: deadline, check)
    }

    /// Forgets the entry that just fired; call first thing in the check.
    package mutating func fired() {
        entry = nil
        armedFor = nil
    }

    /// Drops the pending check (the owner closed).
    package mutating func cancel(_ timers: TimerQueue) {
        if let entry { timers.cancel(entry) }
        fired()
    }

    /// The keys whose deadline is due now — within the 1 ms granularity of ``TimerQueue``, as its
    /// own entries are — and the earliest deadline of the others, to watch next.
    package static func sweep<Key>(
        _ deadlines: some Sequence<(Key, MonotonicInstant?)>
    ) -> (due: [Key], next: MonotonicInstant?) {
        let now = MonotonicInstant.now + .milliseconds(1)
        var due: [Key] = []
        var next: MonotonicInstant?
        for case let (key, deadline?) in deadlines {
            if deadline <= now {
                due.append(key)
            } else if next.map({ deadline < $0 }) ?? true {
                next = deadline
            }
        }
        return (due, next)
    }
}
