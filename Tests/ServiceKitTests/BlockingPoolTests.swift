import Glibc
import Synchronization
import Testing
import VerticalsClient
import VerticalsContract
@testable import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The blocking-work pool is bounded, and `daemon.health` tells a busy pool from a wedged one
/// without waiting behind its queue. Each test has a pool of its own, never the process's.
@Suite(.blocking, .timeLimit(.minutes(2)))
struct BlockingPoolTests {
    /// Jobs that wait until the test opens the gate, counting those that started; the gate opens
    /// by itself after a minute, so that no test leaves a thread blocked for ever.
    final class Gate: Sendable {
        let started = Atomic<Int>(0)
        let open = Atomic<Bool>(false)

        /// A job that counts itself started and returns once the gate is open.
        var job: @Sendable () -> Void {
            { [self] in
                started.add(1, ordering: .relaxed)
                let limit = ContinuousClock.now + .seconds(60)
                while !open.load(ordering: .acquiring) && ContinuousClock.now < limit { usleep(1_000) }
            }
        }

        /// Waits until `count` jobs have started.
        func waitForStarted(_ count: Int) -> Bool {
            eventually(timeout: .seconds(30)) { self.started.load(ordering: .relaxed) >= count }
        }

        func release() { open.store(true, ordering: .releasing) }
    }

    /// A router that answers `daemon.health` over `pool`.
    static func health(over pool: BlockingThreads) -> Router {
        var router = Router(service: "echo")
        Builtins.installHealth(
            into: &router, configuration: HostConfiguration(name: "echo", socketDirectory: SocketDirectory("/tmp")),
            pool: pool)
        return router
    }

    @Test func fullQueue_refusesTheNextJob_withRetryableResourceExhausted_andRunsEveryJobItTook() async throws {
        let pool = BlockingThreads(limit: 2, queueLimit: 1)
        let gate = Gate()
        defer { gate.release() }
        #expect(pool.run(gate.job) && pool.run(gate.job))
        #expect(gate.waitForStarted(2), "both threads took a job")
        // One may wait; the next is refused, and says what to do.
        let waited = BlockingResult<Int>()
        #expect(pool.run { waited.set(7) })
        // As a caller of an operation whose handler offloads gets it.
        var router = Router(service: "echo")
        let hash = Operation<Empty, Empty>("echo", "hash", summary: "Offload one job.")
        router.on(hash) { _, _ in try await Offload.run(on: pool) { Empty() } }
        let refused = await #expect(throws: ServiceError.self) { try await router.serveInProcess(hash, Empty()) }
        #expect(refused?.code == .resourceExhausted)
        #expect(refused?.retryable == true)
        #expect(refused?.message.contains("VERTICALS_BLOCKING_QUEUE") == true, "\(refused?.message ?? "")")
        gate.release()
        #expect(waited.wait() == 7)
        #expect(try await Offload.run(on: pool) { 9 } == 9, "room again once the threads are free")
    }

    @Test func queueLimitZero_refusesOnlyWhileEveryThreadIsBusy() async throws {
        let pool = BlockingThreads(limit: 1, queueLimit: 0)
        #expect(try await Offload.run(on: pool) { 1 } == 1)
        let gate = Gate()
        defer { gate.release() }
        #expect(pool.run(gate.job))
        #expect(gate.waitForStarted(1))
        #expect(!pool.run {}, "no job waits")
    }

    @Test func health_isHealthy_whileEveryThreadIsBusyAndProgressing_withoutWaitingBehindTheQueue() async throws {
        let pool = BlockingThreads(limit: 2, queueLimit: 64, stallLimit: .seconds(30))
        let gate = Gate()
        defer { gate.release() }
        for _ in 0..<6 { #expect(pool.run(gate.job)) }
        #expect(gate.waitForStarted(2))
        let health = try await Self.health(over: pool).serveInProcess(Daemon.health, Empty())
        #expect(health.service == "echo" && health.pid == Int(getpid()))
        #expect(
            !gate.open.load(ordering: .acquiring) && gate.started.load(ordering: .relaxed) == 2,
            "answered while both threads were busy and four jobs still waited")
    }

    @Test func health_staysHealthy_whileAStallLimitLongerThanEachJobPasses_manyTimesOver() async throws {
        // 40 jobs of 50 ms on 2 threads: a second of work, over twice the stall limit, with a job
        // taken every 25 ms or so. Each check meets a busy pool and a backlog, never a wedge.
        let pool = BlockingThreads(limit: 2, queueLimit: 64, stallLimit: .milliseconds(400))
        let finished = Atomic<Int>(0)
        for _ in 0..<40 {
            #expect(
                pool.run {
                    usleep(50_000)
                    finished.add(1, ordering: .relaxed)
                })
        }
        // The pool's own reading, on this thread: an `await` between checks could leave this task
        // without a worker thread for longer than the whole backlog takes, while other suites'
        // process tests hold them (health through the router is the test above).
        var checks = 0
        while finished.load(ordering: .relaxed) < 36 {
            let verdict = pool.probe {}
            if case .wedged = verdict {
                Issue.record("a pool taking a job every 25 ms or so read as wedged: \(verdict)")
                break
            }
            checks += 1
            usleep(20_000)
        }
        #expect(checks >= 5, "checked while the backlog drained: \(checks)")
        #expect(eventually(timeout: .seconds(30)) { finished.load(ordering: .relaxed) == 40 })
    }

    @Test func health_runsThroughThePool_whenAThreadIsFree() async throws {
        let pool = BlockingThreads(limit: 2, queueLimit: 64)
        let gate = Gate()
        defer { gate.release() }
        #expect(pool.run(gate.job))
        #expect(gate.waitForStarted(1))
        #expect(pool.probe {} == .queued, "the free thread takes the probe's job")
        _ = try await Self.health(over: pool).serveInProcess(Daemon.health, Empty())
    }

    @Test func health_isUnavailable_whenEveryThreadHasRunOneJobPastTheStallLimit_andHealthyOnceTheyMove() async throws {
        let pool = BlockingThreads(limit: 2, queueLimit: 64, stallLimit: .milliseconds(100))
        let gate = Gate()
        defer { gate.release() }
        #expect(pool.run(gate.job) && pool.run(gate.job))
        #expect(gate.waitForStarted(2))
        let start = ContinuousClock.now
        #expect(eventually(timeout: .seconds(30)) { ContinuousClock.now - start > .milliseconds(150) })
        let router = Self.health(over: pool)
        let error = await #expect(throws: ServiceError.self) { try await router.serveInProcess(Daemon.health, Empty()) }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("wedged: each of its 2 threads") == true, "\(error?.message ?? "")")
        gate.release()
        #expect(eventually(timeout: .seconds(30)) { pool.probe {} == .queued }, "threads free again")
        _ = try await router.serveInProcess(Daemon.health, Empty())
    }

    @Test func limits_areReadFromTheEnvironment_andABadValueKeepsTheDefault_andIsNamedByCheck() {
        let set = BlockingWorkLimits.from(
            environment: [
                "VERTICALS_BLOCKING_QUEUE": "8", "VERTICALS_BLOCKING_STALL_SECONDS": "2.5",
                "VERTICALS_COMPUTE_NICE": "3",
            ])
        #expect(set == BlockingWorkLimits(queueLimit: 8, stallLimit: .milliseconds(2_500), computeNice: 3))
        #expect(
            HostConfiguration.from(environment: ["VERTICALS_BLOCKING_QUEUE": "0"], name: "echo", pid: 1).blockingWork
                .queueLimit == 0)
        let bad = [
            "VERTICALS_BLOCKING_QUEUE": "-1", "VERTICALS_BLOCKING_STALL_SECONDS": "never",
            "VERTICALS_COMPUTE_NICE": "20",
        ]
        #expect(BlockingWorkLimits.from(environment: bad) == BlockingWorkLimits())
        let problems = BlockingWorkLimits.problems(in: bad)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("VERTICALS_COMPUTE_NICE=20") })
        #expect(problems.contains { $0.hasPrefix("VERTICALS_BLOCKING_QUEUE=-1") })
        #expect(problems.contains { $0.hasPrefix("VERTICALS_BLOCKING_STALL_SECONDS=never") })
        #expect(BlockingWorkLimits.problems(in: ["VERTICALS_BLOCKING_QUEUE": "16"]).isEmpty)
        let checked = DaemonArguments.problems(in: .from(environment: bad, name: "echo", pid: 1), environment: bad)
        #expect(checked.contains { $0.hasPrefix("VERTICALS_BLOCKING_QUEUE=-1") }, "--check names it: \(checked)")
    }

    /// The nice value of the calling thread (Linux keeps one per thread), from `/proc/thread-self/stat`.
    static func threadNice() -> Int32 {
        // Field 19 (nice), counted after the command's closing parenthesis, which a name may hold.
        guard let stat = readFile("/proc/thread-self/stat"), let end = stat.lastIndex(of: ")") else { return .min }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 16 ? Int32(fields[16]) ?? .min : .min
    }

    /// CPU-bound work runs below serving: a pool's threads start `nice` steps below the thread
    /// that starts them (at most at 19), the blocking-work pool's at the same priority, and
    /// `Offload.compute` runs its work on the process's compute pool, at the default 10 steps.
    @Test func computeThreads_runNiceStepsBelowTheDaemon_blockingThreadsAtItsOwnPriority() async throws {
        let base = Self.threadNice()
        let lowered = BlockingThreads(limit: 1, queueLimit: nil, name: "compute-work", nice: 3)
        #expect(try await Offload.run(on: lowered) { Self.threadNice() } == min(19, base + 3))
        let floor = BlockingThreads(limit: 1, queueLimit: nil, nice: 40)
        #expect(try await Offload.run(on: floor) { Self.threadNice() } == 19)
        let same = BlockingThreads(limit: 1, queueLimit: nil)
        #expect(try await Offload.run(on: same) { Self.threadNice() } == base)
        #expect(
            try await Offload.run(on: same) { Self.threadNice() } == base, "nothing lowered the pool's thread meanwhile"
        )
        let computed = try await Offload.compute { (Self.threadNice(), readFile("/proc/thread-self/comm")) }
        #expect(computed.0 == min(19, base + Int32(BlockingWorkLimits.defaultComputeNice)))
        #expect(computed.1 == "compute-work\n")
    }
}
