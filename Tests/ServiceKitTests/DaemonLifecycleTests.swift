import Logging
import Synchronization
import Testing
import VerticalsEventLoop
import VerticalsServiceKit

/// The daemon's lifecycle in-process: a ``DaemonLifecycle`` on a real loop, with parts that say
/// what happened to them. No signals: the tests trigger the shutdown a signal would.
@Suite(.timeLimit(.minutes(1)))
struct DaemonLifecycleTests {
    /// What the parts of one test did, in order.
    final class Journal: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Runs until shutdown, then takes `stopTime` on the loop's timers to stop.
    struct Recorder: DaemonPart {
        let name: String
        let journal: Journal
        let loop: EventLoop
        var stopTime: Duration = .zero

        func run() async throws {
            journal.add("start \(name)\(loop.inEventLoop ? "" : " off the loop")")
            await waitForShutdown()
            if stopTime > .zero {
                // Cancelled already: a loop sleep would end at once, so wait on an uncancelled task.
                let loop = self.loop
                let stopTime = self.stopTime
                await Task(executorPreference: loop) { try? await loop.sleep(for: stopTime) }.value
            }
            journal.add("stop \(name)")
        }
    }

    /// Ends by itself: throwing `error`, or returning when nil.
    struct Ending: DaemonPart {
        let error: (any Error)?
        func run() async throws {
            if let error { throw error }
        }
    }

    struct Broken: Error, Equatable {}

    let loop: EventLoop
    let logger = Logger(label: "lifecycle-test")

    init() throws {
        loop = try EventLoop(name: "lifecycle-test")
    }

    func run(_ lifecycle: DaemonLifecycle) async throws {
        try await Task(executorPreference: loop) { try await lifecycle.run() }.value
    }

    @Test func run_whenShutdownIsTriggered_stopsPartsInReverseOrder_eachAfterTheLastHasStopped() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let lifecycle = DaemonLifecycle(
            parts: [
                Recorder(name: "client", journal: journal, loop: loop),
                Recorder(name: "background", journal: journal, loop: loop),
                // The host takes a while to drain: the background work must not be stopped meanwhile.
                Recorder(name: "host", journal: journal, loop: loop, stopTime: .milliseconds(100)),
            ],
            loop: loop, signals: [], logger: logger)
        async let ran: Void = run(lifecycle)
        #expect(await waitFor { journal.all.count == 3 })
        lifecycle.triggerGracefulShutdown()
        try await ran
        #expect(Array(journal.all.prefix(3)).sorted() == ["start background", "start client", "start host"])
        #expect(Array(journal.all.dropFirst(3)) == ["stop host", "stop background", "stop client"])
    }

    @Test func run_whenAPartThrows_stopsTheOthersAndRethrows() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let lifecycle = DaemonLifecycle(
            parts: [
                Recorder(name: "client", journal: journal, loop: loop), Ending(error: Broken()),
                Recorder(name: "host", journal: journal, loop: loop),
            ],
            loop: loop, signals: [], logger: logger)
        await #expect(throws: Broken.self) { try await run(lifecycle) }
        #expect(journal.all.filter { $0.hasPrefix("stop") } == ["stop host", "stop client"])
    }

    @Test func run_whenAPartReturnsEarly_stopsTheOthersAndReturns() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let lifecycle = DaemonLifecycle(
            parts: [Recorder(name: "host", journal: journal, loop: loop), Ending(error: nil)],
            loop: loop, signals: [], logger: logger)
        try await run(lifecycle)
        #expect(journal.all.last == "stop host")
    }

    @Test func parts_runOnTheLoopThread() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let lifecycle = DaemonLifecycle(
            parts: [Recorder(name: "host", journal: journal, loop: loop)], loop: loop, signals: [], logger: logger)
        async let ran: Void = run(lifecycle)
        #expect(await waitFor { !journal.all.isEmpty })
        lifecycle.triggerGracefulShutdown()
        try await ran
        #expect(journal.all == ["start host", "stop host"])
    }

    @Test func waitForShutdown_whenTheTaskIsCancelledAlready_returnsAtOnce() async {
        defer { loop.shutdown() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await waitForShutdown()
            return Task.isCancelled
        }
        #expect(await task.value)
    }

    /// Polls `condition` every 5 ms until it holds (false after 30 s: a bound no stall reaches).
    func waitFor(_ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
