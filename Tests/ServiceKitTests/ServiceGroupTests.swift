import Logging
import Synchronization
import Testing
import VerticalsEventLoop
import VerticalsServiceKit

/// The daemon's lifecycle in-process: a ``ServiceGroup`` on a real loop, with services that say
/// what happened to them. No signals: the tests trigger the shutdown a signal would.
@Suite(.timeLimit(.minutes(1)))
struct ServiceGroupTests {
    /// What the services of one test did, in order.
    final class Journal: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Runs until shutdown, then takes `stopTime` on the loop's timers to stop.
    struct Recorder: Service {
        let name: String
        let journal: Journal
        let loop: EventLoop
        var stopTime: Duration = .zero

        func run() async throws {
            journal.add("start \(name)\(loop.inEventLoop ? "" : " off the loop")")
            await gracefulShutdown()
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
    struct Ending: Service {
        let error: (any Error)?
        func run() async throws {
            if let error { throw error }
        }
    }

    struct Broken: Error, Equatable {}

    let loop: EventLoop
    let logger = Logger(label: "group-test")

    init() throws {
        loop = try EventLoop(name: "group-test")
    }

    func run(_ group: ServiceGroup) async throws {
        try await Task(executorPreference: loop) { try await group.run() }.value
    }

    @Test func run_whenShutdownIsTriggered_stopsServicesInReverseOrder_eachAfterTheLastHasStopped() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let group = ServiceGroup(
            services: [
                Recorder(name: "client", journal: journal, loop: loop),
                Recorder(name: "background", journal: journal, loop: loop),
                // The host takes a while to drain: the background work must not be stopped meanwhile.
                Recorder(name: "host", journal: journal, loop: loop, stopTime: .milliseconds(100)),
            ],
            loop: loop, signals: [], logger: logger)
        async let ran: Void = run(group)
        #expect(await waitFor { journal.all.count == 3 })
        group.triggerGracefulShutdown()
        try await ran
        #expect(Array(journal.all.prefix(3)).sorted() == ["start background", "start client", "start host"])
        #expect(Array(journal.all.dropFirst(3)) == ["stop host", "stop background", "stop client"])
    }

    @Test func run_whenAServiceThrows_stopsTheOthersAndRethrows() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let group = ServiceGroup(
            services: [
                Recorder(name: "client", journal: journal, loop: loop), Ending(error: Broken()),
                Recorder(name: "host", journal: journal, loop: loop),
            ],
            loop: loop, signals: [], logger: logger)
        await #expect(throws: Broken.self) { try await run(group) }
        #expect(journal.all.filter { $0.hasPrefix("stop") } == ["stop host", "stop client"])
    }

    @Test func run_whenAServiceReturnsEarly_stopsTheOthersAndReturns() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let group = ServiceGroup(
            services: [Recorder(name: "host", journal: journal, loop: loop), Ending(error: nil)],
            loop: loop, signals: [], logger: logger)
        try await run(group)
        #expect(journal.all.last == "stop host")
    }

    @Test func services_runOnTheLoopThread() async throws {
        defer { loop.shutdown() }
        let journal = Journal()
        let group = ServiceGroup(
            services: [Recorder(name: "host", journal: journal, loop: loop)], loop: loop, signals: [], logger: logger)
        async let ran: Void = run(group)
        #expect(await waitFor { !journal.all.isEmpty })
        group.triggerGracefulShutdown()
        try await ran
        #expect(journal.all == ["start host", "stop host"])
    }

    @Test func gracefulShutdown_whenTheTaskIsCancelledAlready_returnsAtOnce() async {
        defer { loop.shutdown() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await gracefulShutdown()
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
