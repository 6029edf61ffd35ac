import Synchronization

/// The facts about a host that every one of its loops shares (see `ServiceHost+Loops.swift`):
/// the connections open on all of them, held to ``ConnectionLimits/maxConnections`` exactly.
/// Each loop's own state (its connections, timers, drain) stays on that loop.
final class HostCensus: Sendable {
    /// Connections admitted and not yet closed, on every loop.
    private let open = Atomic<Int>(0)

    /// Counts one more connection unless `limit` are open already; false: refuse it.
    /// A compare-and-swap, so two loops admitting at once never pass the limit together.
    func admit(limit: Int) -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = open.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// An admitted connection closed.
    func release() {
        open.subtract(1, ordering: .relaxed)
    }

    /// Connections open now, on every loop.
    var connections: Int { open.load(ordering: .relaxed) }
}
