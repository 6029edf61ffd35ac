import Glibc
import Synchronization
import Testing
import VerticalsServiceKit
import VerticalsTesting

/// Blocking work runs on the framework's own threads, several at once, and hands back its result.
struct OffloadTests {
    /// How many jobs have started, shared by the jobs.
    final class Arrivals: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func run_returnsEachJobsResult_whenManyRunAtOnce() async throws {
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 1...64 {
                group.addTask { try await Offload.run { index } }
            }
            return try await group.reduce(0, +)
        }
        #expect(sum == 64 * 65 / 2)
    }

    @Test func run_rethrowsTheJobsError() async {
        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await Offload.run { throw Failed() } }
    }

    @Test func run_usesAThreadNamedBlockingWork_notLibdispatchs() async throws {
        let name = try await Offload.run { readFile("/proc/thread-self/comm") }
        #expect(name == "blocking-work\n")
    }

    @Test func run_runsBlockingJobsSideBySide() async throws {
        // Two jobs that each wait for the other: they finish only if they run at the same time.
        let arrived = Arrivals()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    try await Offload.run {
                        arrived.count.add(1, ordering: .relaxed)
                        let deadline = ContinuousClock.now + .seconds(60)
                        while arrived.count.load(ordering: .relaxed) < 2 && ContinuousClock.now < deadline {
                            usleep(1_000)
                        }
                        return arrived.count.load(ordering: .relaxed) == 2
                    }
                }
            }
            for try await metEachOther in group { #expect(metEachOther) }
        }
    }
}
