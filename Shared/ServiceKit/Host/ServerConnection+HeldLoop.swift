import Logging
import VerticalsClient
import VerticalsEventLoop
import VerticalsObservability

// A handler routed with `onSync` runs on the loop thread: while it runs, no other connection on
// that loop is read or answered. One that waits (for a store, a lock, another vertical) stalls
// them all; this is where the host notices.
extension ServerConnection {
    /// A request `counts`' handler answered at once took `nanoseconds` from receipt to answer,
    /// more than ``HostConfiguration/syncHandlerWarning``: counted, and a warning when one is due.
    func heldTheLoop(_ counts: OperationCounts, nanoseconds: Int64, at now: MonotonicInstant) {
        guard let since = counts.heldTheLoop(at: now.nanoseconds) else { return }
        let also = since > 1 ? " (\(since) times since the last warning)" : ""
        let text =
            "\(counts.name) held its event loop for \(nanoseconds / 1_000_000) ms\(also): it is routed with onSync, "
            + "so no other connection on the loop was served meanwhile; route it with on(_:_:) if it waits for anything "
            + "(VERTICALS_SYNC_WARN_MS sets the limit)"
        logger.warning("\(text)")
    }
}
