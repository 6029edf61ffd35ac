import EventLoop
import Glibc
import IOInterface
import ProcessTesting
import SupervisorEngine
import Testing

extension EngineProcessTests {
    /// Backoff that forgives a healthy run, and never a dead one.
    @Suite("backoff that forgives")
    struct Forgiveness {
        /// Ready through the real systemd-notify, then exits 1 after `seconds`.
        static func readyThenExit(
            _ name: String, after seconds: String, resetAfter: Duration = .milliseconds(150)
        ) -> ServiceSpec {
            var spec = ServiceSpec.script(
                name, "systemd-notify --ready --pid=$$; sleep \(seconds); exit 1", readiness: .notify)
            spec.backoff = Backoff(
                initial: .milliseconds(40), max: .seconds(10), multiplier: 8, resetAfter: resetAfter)
            spec.budget = RestartBudget(maxRestarts: 50, window: .seconds(60))
            return spec
        }

        /// The delays between each `backoff` event and the next `starting`.
        static func waits(_ harness: EngineHarness, _ name: String) -> [Duration] {
            let events = harness.events(of: name)
            var waits: [Duration] = []
            for (index, event) in events.enumerated() where event.state == .backoff {
                if let next = events[index...].first(where: { $0.state == .starting }) { waits.append(next.at - event.at) }
            }
            return waits
        }

        @Test func runsReadyLongerThanResetAfter_restartAfterTheInitialDelayEachTime() async throws {
            let harness = try EngineHarness([Self.readyThenExit("steady", after: "0.35")])
            try await harness.start()
            try await harness.waitFor("steady", .starting, count: 4)
            let waits = Self.waits(harness, "steady")
            // Without forgiveness: 40 ms, 320 ms, 2.56 s.
            #expect(waits.count >= 3 && waits.allSatisfy { $0 < .milliseconds(300) }, "\(waits)")
            await harness.shutdown()
        }

        @Test func runsThatDieSoonAfterReady_growTheBackoff() async throws {
            let harness = try EngineHarness([Self.readyThenExit("brittle", after: "0.02")])
            try await harness.start()
            try await harness.waitFor("brittle", .starting, count: 3)
            let waits = Self.waits(harness, "brittle")
            #expect(waits[0] >= .milliseconds(39) && waits[0] < .milliseconds(300), "\(waits)")
            #expect(waits[1] >= .milliseconds(319), "\(waits)")
            await harness.shutdown()
        }

        /// supervisord's bug: a child that died soon after starting, noticed only after its
        /// healthy period, counts as a good start. Here the loop is held busy for 1.2 s right
        /// after the second run is ready; the child dies 20 ms in (far less than 500 ms, even on
        /// a loaded machine); the forgiveness timer (due at 500 ms) then fires before the exit
        /// is reaped — and must find a zombie, not a run.
        @Test func aChildThatDiedWhileTheSupervisorWasBusy_isNotForgiven() async throws {
            let harness = try EngineHarness([
                Self.readyThenExit("late", after: "0.02", resetAfter: .milliseconds(500))
            ])
            try await harness.start()
            try await harness.waitFor("late", .ready, count: 2)
            harness.loop.execute { usleep(1_200_000) }
            try await harness.waitFor("late", .starting, count: 3)
            let waits = Self.waits(harness, "late")
            // Forgiven, the second wait would be the initial 40 ms again.
            #expect(waits.count >= 2 && waits[1] >= .milliseconds(319), "\(waits)")
            await harness.shutdown()
        }
    }
}
