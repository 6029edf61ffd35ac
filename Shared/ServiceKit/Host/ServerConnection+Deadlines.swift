import VerticalsClient
/// Request deadlines: one `DeadlineCheck` per connection answers every request still in
/// flight at its deadline with `deadlineExceeded` and cancels its handler.
extension ServerConnection {
    /// Makes sure request deadlines are checked by `deadline`.
    func watchDeadline(_ deadline: MonotonicInstant) {
        // Strong capture: `closed()` cancels the entry, and the host's queue drops it when it stops.
        deadlineCheck.watch(deadline, on: timers) { [self] in checkDeadlines() }
    }

    private func checkDeadlines() {
        deadlineCheck.fired()
        guard !connection.isClosed else { return }
        let (due, next) = DeadlineCheck.sweep(inFlight.deadlines)
        for id in due { deadlinePassed(id) }
        if let next { watchDeadline(next) }
    }
}
