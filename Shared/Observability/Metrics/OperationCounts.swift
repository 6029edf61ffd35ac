import VerticalsWire

/// What one loop counts of one operation: requests, errors by code and latency.
///
/// Loop-confined: written only by the request path on its host's loop thread and read there
/// (``LoopCounts/snapshot()``, which `daemon.metrics` runs on each loop), which is what makes
/// the `@unchecked Sendable` below sound. So counting a request takes no atomic operation and
/// no lock, and no two loops write the same memory.
package final class OperationCounts: @unchecked Sendable {
    /// The operation's full name (``RequestCounts/unroutedName`` for the unrouted).
    package let name: String
    // `@exclusivity(unchecked)`: a class's stored property changed in place is checked for
    // overlapping access at run time (swift_beginAccess/endAccess, about 80 instructions a
    // request each for `requests` and `latency`). Loop-confined and only ever changed by the
    // short methods below, none of which calls out (they touch only these integers, the
    // histogram and the dictionary) while it holds an access, so no two accesses can overlap.
    // `@usableFromInline`: the host counts every request it serves through the `@inlinable`
    // methods below, inlined into its request path as when both lived in one module.
    /// Requests received (refused ones included).
    @usableFromInline @exclusivity(unchecked) var requests: UInt64 = 0
    /// Answers by error code.
    @usableFromInline @exclusivity(unchecked) var errors: [ErrorCode: UInt64] = [:]
    /// How long the answered (or abandoned) requests took.
    @usableFromInline @exclusivity(unchecked) var latency = LatencyHistogram()
    /// Requests answered at once (``Router/onSync(_:_:)``) that held their loop past the host's
    /// ``HostConfiguration/syncHandlerWarning``.
    @exclusivity(unchecked) private(set) var heldLoop: UInt64 = 0
    /// Of those, the ones since the last warning, and when that was (monotonic nanoseconds).
    @exclusivity(unchecked) private var heldSinceWarning: UInt64 = 0
    @exclusivity(unchecked) private var lastHeldWarning: Int64?

    /// Counts for the operation `name`, all zero.
    package init(name: String) { self.name = name }

    /// Counts one request received.
    @inlinable package func requested() { requests &+= 1 }

    /// Counts one answer with error `code`.
    @inlinable package func failed(_ code: ErrorCode) { errors[code, default: 0] &+= 1 }

    /// Records one request's time from receipt to answer.
    @inlinable package func took(nanoseconds: Int64) { latency.record(nanoseconds: nanoseconds) }

    /// Counts one request that held the loop too long, at `now` (monotonic nanoseconds). Returns
    /// how many did since the last warning when another is due (at most one a minute), else nil.
    package func heldTheLoop(at now: Int64) -> UInt64? {
        heldLoop &+= 1
        heldSinceWarning &+= 1
        if let last = lastHeldWarning, now - last < Self.heldWarningInterval { return nil }
        lastHeldWarning = now
        defer { heldSinceWarning = 0 }
        return heldSinceWarning
    }

    /// At most one warning a minute per operation and loop: a handler that always blocks would
    /// otherwise log at the rate it is called.
    package static let heldWarningInterval: Int64 = 60_000_000_000

    /// A copy of the counts, to add to other loops'.
    package var totals: RequestCounts.Totals {
        RequestCounts.Totals(requests: requests, errors: errors, latency: latency, heldLoop: heldLoop)
    }
}

/// Every operation's counts on one loop: the table a host's ``ServedOperation``s point into,
/// plus one for requests naming an operation the host does not route. Loop-confined, as
/// ``OperationCounts``.
package final class LoopCounts: @unchecked Sendable {
    /// By full operation name.
    package let operations: [String: OperationCounts]
    /// Requests for an operation this host does not route (kept apart: the name is the caller's).
    package let unrouted = OperationCounts(name: RequestCounts.unroutedName)

    /// Counts for each of `operationNames`, all zero.
    package init(operationNames: some Sequence<String>) {
        var operations: [String: OperationCounts] = [:]
        for name in operationNames { operations[name] = OperationCounts(name: name) }
        self.operations = operations
    }

    /// The counts of `operation`, or ``unrouted``.
    package func operation(_ operation: String) -> OperationCounts {
        operations[operation] ?? unrouted
    }

    /// This loop's counts now (call on its loop).
    package func snapshot() -> RequestCounts {
        var counts = RequestCounts()
        for (name, operation) in operations { counts.operations[name] = operation.totals }
        counts.operations[RequestCounts.unroutedName] = unrouted.totals
        return counts
    }
}
