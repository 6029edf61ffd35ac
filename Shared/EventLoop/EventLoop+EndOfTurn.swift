import CLibUV

/// Work that runs once per loop turn, after the I/O callbacks and the queued jobs they resumed:
/// where a connection writes what a whole turn produced in one syscall (see `Connection.write`).
extension EventLoop {
    /// Flushes `connection`'s corked bytes at the end of this loop turn; called on the loop thread.
    ///
    /// A list of connections rather than of closures: a closure per write cost an allocation on
    /// every answer. A connection added while the list runs waits for the next turn, which then
    /// does not block in poll.
    func flushAtEndOfTurn(_ connection: Connection) {
        preconditionInEventLoop()
        endOfTurn.append(connection)
        // No syscall: keeps this turn's poll (if it is still to come) from blocking.
        uv_idle_start(pendingIdle, EventLoop.onIdle)
    }

    /// Flushes what ``flushAtEndOfTurn(_:)`` collected; from the check callback, after the job queue drained.
    func runEndOfTurn() {
        guard !endOfTurn.isEmpty else { return }
        var batch: [Connection] = []
        swap(&batch, &spareEndOfTurn)
        swap(&batch, &endOfTurn)
        // Indexed rather than `for … in`: unspecialised (a debug build), an array's iterator reads
        // each element through a coroutine whose frame is allocated, one allocation a turn.
        var index = 0
        while index < batch.count {
            batch[index].endOfTurnFlush()
            index += 1
        }
        batch.removeAll(keepingCapacity: true)
        spareEndOfTurn = batch
    }
}
