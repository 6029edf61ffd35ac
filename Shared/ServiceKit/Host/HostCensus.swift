import Synchronization
import VerticalsWire

/// The facts about a host that every one of its loops shares (see `ServiceHost+Loops.swift`):
/// the connections open on all of them, held to ``ConnectionLimits/maxConnections`` exactly,
/// and those of each caller (``Connection/callerKey``), held to
/// ``ConnectionLimits/maxConnectionsPerPeer``. Each loop's own state (its connections, timers,
/// drain) stays on that loop.
final class HostCensus: Sendable {
    /// Connections admitted and not yet closed, on every loop.
    private let open = Atomic<Int>(0)
    /// Connections admitted and not yet closed, by caller key. A key leaves when its count
    /// reaches zero, so the table holds at most one entry per open connection; its capacity is the
    /// backstop, and a count is never forgotten to make room (a new caller is refused instead).
    private let byCaller: Mutex<BoundedCache<String, Int>>

    /// The most callers counted at once: far more than the connections a daemon holds.
    static let maxCallers = 65_536

    /// An empty census counting at most `maxCallers` callers at once.
    init(maxCallers: Int = HostCensus.maxCallers) {
        byCaller = Mutex(BoundedCache(capacity: maxCallers))
    }
    /// When a refusal for a limit was last logged, and how many were not logged since.
    private let refusalLog = Mutex<(last: ContinuousClock.Instant?, unlogged: Int)>((nil, 0))

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

    /// Counts one more connection of `caller` unless it has `limit` open already; false: refuse
    /// it. A caller the kernel does not name (nil) is not counted per caller.
    func admit(caller: String?, limit: Int) -> Bool {
        guard let caller else { return true }
        return byCaller.withLock { counts in
            let current = counts[caller] ?? 0
            guard current < limit else { return false }
            return counts.storeIfRoom(current + 1, for: caller)
        }
    }

    /// An admitted connection of `caller` closed (or was refused by a later check).
    func release(caller: String?) {
        guard let caller else { return }
        byCaller.withLock { counts in
            let remaining = (counts[caller] ?? 1) - 1
            if remaining > 0 { counts.store(remaining, for: caller) } else { counts.removeValue(for: caller) }
        }
    }

    /// Connections of `caller` open now, on every loop.
    func connections(of caller: String) -> Int {
        byCaller.withLock { $0[caller] ?? 0 }
    }

    /// Whether a refusal for a limit may be logged now: at most one line per `interval`, so a
    /// flood of refused connections cannot flood the log. The count says how many refusals went
    /// unlogged before this one (nil: do not log this one).
    func refusalToLog(every interval: Duration = .seconds(1)) -> Int? {
        let now = ContinuousClock.now
        return refusalLog.withLock { state in
            if let last = state.last, now - last < interval {
                state.unlogged += 1
                return nil
            }
            let unlogged = state.unlogged
            state = (now, 0)
            return unlogged
        }
    }

    /// An admitted connection closed.
    func release() {
        open.subtract(1, ordering: .relaxed)
    }

    /// Connections open now, on every loop.
    var connections: Int { open.load(ordering: .relaxed) }
}
