import Glibc
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests {
    /// `daemon.health` on an interval: a daemon alive but answering nothing is restarted.
    @Suite("liveness over the protocol", .blocking)
    struct Liveness {
        static func checked(_ name: String, timeout: Duration = .milliseconds(300)) -> ServiceSpec {
            var spec = ServiceSpec.testd(name)
            spec.liveness = LivenessCheck(interval: .milliseconds(100), timeout: timeout, failures: 2)
            spec.backoff = .every(.milliseconds(20))
            return spec
        }

        @Test func aDaemonThatAnswers_isNeverRestarted() async throws {
            // A generous timeout: on a loaded 2-core machine a healthy child can be slow to be
            // scheduled, and this test is about answers, not about how fast they come.
            let harness = try EngineHarness([Self.checked("lively", timeout: .seconds(5))])
            try await harness.start()
            try await harness.waitFor("lively", .ready)
            // Ten checks, each one a real daemon.health call through the handler path, counted by
            // the daemon itself (a fixed sleep saw fewer, or none, when the loop was slow to start).
            let socket = harness.run.socket(for: "lively")
            #expect(eventually(timeout: .seconds(60)) { (Self.healthCallsAnswered(at: socket) ?? 0) >= 10 })
            let status = try await harness.status("lively")
            #expect(status.state == .ready && status.restarts == 0, "\(status)")
            let log = try #require(readFile(harness.run.log(for: "lively")))
            #expect(!log.contains("liveness"), "\(log)")
            await harness.shutdown()
        }

        /// How many `daemon.health` calls the daemon at `socket` has counted, from its own
        /// `daemon.metrics` (asked on a connection of its own), or nil if it did not answer.
        static func healthCallsAnswered(at socket: String) -> Int? {
            guard let client = try? RawClient(path: socket),
                (try? client.sendRequest(
                    id: 1, operation: VerticalsContract.Daemon.metrics.fullName, body: Empty().encodedBody())) != nil,
                case .message(let message) = client.receive(),
                let exposition = try? message.decodeBody(as: VerticalsContract.Daemon.Metrics.self).exposition
            else { return nil }
            return healthCalls(in: exposition)
        }

        /// The `daemon.health` calls a `daemon.metrics` exposition counts.
        static func healthCalls(in exposition: String) -> Int {
            let sample = exposition.split(separator: "\n").first {
                $0.hasPrefix("verticals_requests_total{") && $0.contains("operation=\"daemon.health\"")
            }
            return sample?.split(separator: " ").last.flatMap { Double($0) }.map { Int($0) } ?? 0
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
            #expect(
                status.lastExit.hasPrefix("liveness: no answer to daemon.health within 300 ms"), "\(status.lastExit)")
            #expect(status.lastExit.contains("last status: serving"), "\(status.lastExit)")
            // Two failed checks of 300 ms each, 100 ms apart, before the kill.
            #expect(ready.at > restarted.at)
            #expect(!EngineHarness.isAlive(Int32(before)))
            await harness.shutdown()
        }
    }
}
