import EventLoop
import Glibc
import IOInterface
import ProcessTesting
import SupervisorEngine
import Testing
import Wire

extension EngineProcessTests {
    /// `daemon.health` on an interval: a daemon alive but answering nothing is restarted.
    @Suite("liveness over the protocol")
    struct Liveness {
        static func checked(_ name: String, timeout: Duration = .milliseconds(300)) -> ServiceSpec {
            var spec = ServiceSpec.testd(name)
            spec.liveness = LivenessCheck(interval: .milliseconds(100), timeout: timeout, failures: 2)
            spec.backoff = Backoff(initial: .milliseconds(20), max: .milliseconds(20), multiplier: 1)
            return spec
        }

        @Test func aDaemonThatAnswers_isNeverRestarted() async throws {
            // A generous timeout: on a loaded 2-core machine a healthy child can be slow to be
            // scheduled, and this test is about answers, not about how fast they come.
            let harness = try EngineHarness([Self.checked("lively", timeout: .seconds(2))])
            try await harness.start()
            try await harness.waitFor("lively", .ready)
            // Ten checks or so; each one a real daemon.health call through the handler path.
            try await Task.sleep(for: .milliseconds(1_200))
            let status = try await harness.status("lively")
            #expect(status.state == .ready && status.restarts == 0, "\(status)")
            let log = try #require(readFile(harness.run.log(for: "lively")))
            #expect(!log.contains("liveness"), "\(log)")
            await harness.shutdown()
        }

        @Test func aDaemonDeadlockedInAHandler_isKilledAndRestarted_withTheReasonAndItsLastStatus() async throws {
            let harness = try EngineHarness([Self.checked("stuck")])
            try await harness.start()
            try await harness.waitFor("stuck", .ready)
            let before = try #require(try await harness.status("stuck").pid)
            let client = try RawClient(path: harness.run.socket(for: "stuck"), receiveTimeout: .milliseconds(150))
            try client.sendRequest(id: 1, operation: "stuck.wedge", body: Empty().encodedBody())
            // Silent: not even a protocol ping comes back. (When this test's task waits its turn
            // behind other suites, the supervisor may have killed the daemon already: then the
            // connection closes, which is no answer either. That it was alive until the
            // supervisor killed it is what the recorded reason below proves.)
            try client.send(Message.frame(Envelope(kind: .ping, correlationID: 2), rawBody: EmptyCollection()))
            if case .message(let reply) = client.receive() {
                Issue.record("the wedged daemon answered: \(reply.envelope)")
                return
            }

            let restarted = try await harness.waitFor("stuck", .backoff)
            let ready = try await harness.waitFor("stuck", .ready, count: 2)
            let status = try await harness.status("stuck")
            #expect(status.pid != before && status.restarts == 1)
            #expect(status.lastExit.hasPrefix("liveness: no answer to daemon.health within 300 ms"), "\(status.lastExit)")
            #expect(status.lastExit.contains("last status: serving"), "\(status.lastExit)")
            // Two failed checks of 300 ms each, 100 ms apart, before the kill.
            #expect(ready.at > restarted.at)
            #expect(!EngineHarness.isAlive(Int32(before)))
            await harness.shutdown()
        }
    }
}
