import Testing
import VerticalsTesting

/// Allocations a request in steady state, counted by `vt-alloc-count` (malloc interposition in a
/// program of its own, so nothing else is interposed): an echo server with an `onSync` handler and
/// with an async one, and the typed client, 10,000 requests each after a warm-up. A change that
/// adds an allocation to a request fails here, in the debug build `make test` runs.
@Suite(.blocking, .timeLimit(.minutes(5)))
struct AllocationCountTests {
    /// The most allocations a request may make in this debug build: what it measured, not the
    /// targets, since the debug build may allocate what a release build does not (an unoptimised
    /// array iterator's read coroutine, which the loop's per-turn lists avoid by indexing).
    /// `make bench`'s allocations row prints the release counts beside their targets. Measured in
    /// the debug build, the same in every run: 1.00 a request at the `onSync` server (its
    /// `RequestContext`), 7.00 at the async one (the context, the prepared request, holding the
    /// Input decoded in place, the task, its closure and allocator slabs), 2.00 at the client (the
    /// request's frame, the answer's copy out of the read buffer). Lower a bound when a change
    /// removes an allocation.
    static let bounds: [(name: String, most: Double)] = [
        ("server.onSync", 1), ("server.async", 7), ("client", 2),
    ]

    @Test func echoRequests_inSteadyState_allocateNoMoreThanMeasured() throws {
        let directory = TemporaryDirectory()
        let run = try runCommand("vt-alloc-count", ["10000"], in: directory, timeout: .seconds(240))
        #expect(run.status == 0, "\(run)")
        var counts: [String: Double] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let value = Double(fields[1]) { counts[String(fields[0])] = value }
        }
        for bound in Self.bounds {
            let count = try #require(counts[bound.name], "vt-alloc-count printed no \(bound.name): \(run)")
            // Slack for what time, not requests, allocates (a timer's sweep) over a slow run's
            // 10,000 requests: far below one allocation added to each, or to one in ten.
            #expect(
                count <= bound.most + 0.05,
                "\(bound.name): \(count) allocations a request, more than the \(bound.most) measured")
        }
    }
}
