import Glibc
import IOInterface
import ProcessTesting
import SupervisorEngine
import Testing

extension EngineProcessTests {
    /// What `status` tells an operator in one call: ready since, restarts in the window,
    /// backoff remaining, the reason of the last exit, and memory.
    @Suite("status in one call")
    struct Status {
        @Test func aReadyService_showsWhenItBecameReadyAndItsMemory() async throws {
            let harness = try EngineHarness([.testd("alpha")])
            let before = Timestamp.now
            try await harness.start()
            try await harness.waitFor("alpha", .ready)
            let status = try await harness.status("alpha")
            let since = try #require(status.readySince)
            #expect(since >= before && since <= Timestamp.now)
            let rss = try #require(status.rssBytes)
            #expect(rss > 1 << 20 && rss < 512 << 20, "\(rss) bytes")
            #expect(status.restartsInWindow == 0 && status.exitReason == nil && status.backoffRemainingSeconds == nil)
            await harness.shutdown()
        }

        @Test func aKilledService_showsTheCrashTheRestartInTheWindowAndTheBackoffLeft() async throws {
            var spec = ServiceSpec.testd("alpha")
            spec.backoff = Backoff(initial: .seconds(3), max: .seconds(3), multiplier: 1)
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("alpha", .ready)
            let pid = try #require(try await harness.status("alpha").pid)
            kill(Int32(pid), SIGKILL)
            try await harness.waitFor("alpha", .backoff)
            let waiting = try await harness.status("alpha")
            #expect(waiting.exitReason == .crash)
            #expect(waiting.lastExit.contains("signal 9"), "\(waiting.lastExit)")
            #expect(waiting.restartsInWindow == 1 && waiting.restarts == 1)
            let left = try #require(waiting.backoffRemainingSeconds)
            #expect(left > 0.5 && left <= 3, "\(left) s")
            #expect(waiting.readySince == nil && waiting.rssBytes == nil && waiting.pid == nil)
            await harness.shutdown()
        }

        @Test func aServiceStoppedOnRequest_saysSo() async throws {
            let harness = try EngineHarness([.testd("alpha")])
            try await harness.start()
            try await harness.waitFor("alpha", .ready)
            _ = try await harness.engine.stopService("alpha")
            let status = try await harness.status("alpha")
            #expect(status.state == .stopped && status.exitReason == .stop)
            await harness.shutdown()
        }
    }
}
