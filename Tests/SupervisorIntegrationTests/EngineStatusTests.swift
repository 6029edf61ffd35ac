import Glibc
import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests {
    /// What `status` tells an operator in one call: ready since, restarts in the window,
    /// backoff remaining, the reason of the last exit, and memory.
    @Suite("status in one call", .blocking)
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
            // Long enough that the test's own task, however late it runs on a loaded machine,
            // asks while the backoff still runs.
            let harness = try EngineHarness([ServiceSpec.testd("alpha").restarting(after: .every(.seconds(60)))])
            let (_, backoff) = try await harness.startThenKill("alpha")
            let waiting = try await harness.status("alpha")
            let elapsed = ContinuousClock.now - backoff.at
            #expect(waiting.exitReason == .crash)
            #expect(waiting.lastExit.contains("signal 9"), "\(waiting.lastExit)")
            #expect(waiting.restartsInWindow == 1 && waiting.restarts == 1)
            let left = try #require(waiting.backoffRemainingSeconds)
            // What is left is the minute less the time since the backoff began (and no less).
            let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            #expect(
                left <= 60 && left >= 60 - elapsedSeconds - 0.01, "\(left) s left, \(elapsed) since the backoff began")
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
