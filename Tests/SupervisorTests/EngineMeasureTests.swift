import Glibc
import IOInterface
import ProcessTesting
import SupervisorEngine
import Testing

extension EngineProcessTests {
    /// Numbers for the issue note, not a timed test: runs only with `VT_MEASURE=1`.
    ///
    ///     VT_MEASURE=1 swift test --filter EngineProcessTests.Measure
    @Suite("measurements", .enabled(if: getenv("VT_MEASURE") != nil))
    struct Measure {
        @Test func killToReady_median_over20Kills() async throws {
            var spec = ServiceSpec.testd("echo")
            // The supervisor's own latency: no backoff to wait out, a budget that never runs out.
            spec.backoff = Backoff(initial: .zero, max: .zero, multiplier: 1)
            spec.budget = RestartBudget(maxRestarts: 1000, window: .seconds(1))
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("echo", .ready)
            var samples: [Duration] = []
            for round in 1...20 {
                let pid = try #require(try await harness.status("echo").pid)
                let killedAt = ContinuousClock.now
                kill(Int32(pid), SIGKILL)
                let ready = try await harness.waitFor("echo", .ready, count: round + 1)
                samples.append(ready.at - killedAt)
                try await Task.sleep(for: .milliseconds(50))
            }
            samples.sort()
            let median = (samples[9] + samples[10]) / 2
            print(
                "kill -9 → replacement READY=1 over 20 kills: median \(median), min \(samples[0]), max \(samples[19])")
            await harness.shutdown()
        }
    }
}
