import Synchronization
import Testing
import VerticalsClient
import VerticalsEventLoop

@testable import VerticalsServiceKit

/// ``TimerQueue``: entries run on the loop in deadline order, a cancelled one never runs, and a
/// handle cancelled after its entry ran (or cancelled twice) changes nothing.
@Suite(.blocking, .timeLimit(.minutes(1)))
struct TimerQueueTests {
    /// Carries the loop-confined queue across the test's awaits; only touched on its loop.
    struct Bound: @unchecked Sendable {
        let timers: TimerQueue
    }

    /// Names of the entries that ran, in order, and a signal per run.
    final class Runs: Sendable {
        let names = Mutex<[String]>([])
        let (signals, signal) = AsyncStream.makeStream(of: String.self)

        func ran(_ name: String) {
            names.withLock { $0.append(name) }
            signal.yield(name)
        }

        /// Waits until `name` ran.
        func waitFor(_ name: String) async {
            for await ran in signals where ran == name { return }
        }
    }

    @Test func schedule_givenThreeEntriesOneCancelled_runsTheOthersInDeadlineOrder() async throws {
        let loop = try EventLoop(name: "timer-queue-test")
        defer { loop.shutdown() }
        let runs = Runs()
        let bound = try await loop.submit {
            let timers = TimerQueue(loop: loop)
            let now = MonotonicInstant.now
            timers.schedule(at: now + .milliseconds(40)) { runs.ran("last") }
            let cancelled = timers.schedule(at: now + .milliseconds(10)) { runs.ran("cancelled") }
            timers.schedule(at: now + .milliseconds(20)) { runs.ran("first") }
            timers.cancel(cancelled)
            return Bound(timers: timers)
        }
        await runs.waitFor("last")
        #expect(runs.names.withLock { $0 } == ["first", "last"])
        try await loop.submit { bound.timers.close() }
    }

    @Test func cancel_givenAnEntryThatRanOrWasCancelledBefore_leavesTheOthersToRun() async throws {
        let loop = try EventLoop(name: "timer-queue-test")
        defer { loop.shutdown() }
        let runs = Runs()
        let (bound, ran) = try await loop.submit {
            let timers = TimerQueue(loop: loop)
            let handle = timers.schedule(at: .now) { runs.ran("at once") }
            return (Bound(timers: timers), TimerQueueTests.Handle(value: handle))
        }
        await runs.waitFor("at once")
        try await loop.submit {
            // Neither may count as a pending entry leaving: the next one must still be armed.
            bound.timers.cancel(ran.value)
            let later = bound.timers.schedule(at: .now + .milliseconds(5)) { runs.ran("later") }
            let dropped = bound.timers.schedule(at: .now + .milliseconds(1)) { runs.ran("dropped") }
            bound.timers.cancel(dropped)
            bound.timers.cancel(dropped)
            _ = later
        }
        await runs.waitFor("later")
        #expect(runs.names.withLock { $0 } == ["at once", "later"])
        try await loop.submit { bound.timers.close() }
    }

    /// Carries a loop-confined handle out of the loop and back; only touched on its loop.
    struct Handle: @unchecked Sendable {
        let value: TimerQueue.Handle
    }
}
