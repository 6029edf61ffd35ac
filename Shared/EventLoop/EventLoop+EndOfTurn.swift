import CLibUV

/// Work that runs once per loop turn, after the I/O callbacks and the queued jobs they resumed:
/// where a connection writes what a whole turn produced in one syscall (see `Connection.write`).
extension EventLoop {
    /// Runs `work` at the end of this loop turn, on the loop thread; called on the loop thread.
    ///
    /// Work added while the end-of-turn list runs waits for the next turn, which then does not
    /// block in poll.
    func atEndOfTurn(_ work: @escaping () -> Void) {
        preconditionInEventLoop()
        endOfTurn.append(work)
        // No syscall: keeps this turn's poll (if it is still to come) from blocking.
        uv_idle_start(pendingIdle, EventLoop.onIdle)
    }

    /// Runs what ``atEndOfTurn(_:)`` collected; from the check callback, after the job queue drained.
    func runEndOfTurn() {
        guard !endOfTurn.isEmpty else { return }
        var batch: [() -> Void] = []
        swap(&batch, &spareEndOfTurn)
        swap(&batch, &endOfTurn)
        for work in batch { work() }
        batch.removeAll(keepingCapacity: true)
        spareEndOfTurn = batch
    }
}
