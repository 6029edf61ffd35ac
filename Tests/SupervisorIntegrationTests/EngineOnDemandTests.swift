import Glibc
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests {
    /// `start = "on-demand"` and `idle_exit`: the engine watches the socket it
    /// holds, starts the service for the caller waiting in its backlog, and takes its idle exit
    /// as a clean stop that waits for the next caller. Every wait is for a fact (an engine event,
    /// an answer, a status), bounded.
    @Suite("on-demand start and idle exit", .blocking)
    struct OnDemand {
        static func onDemand(_ name: String, idleExit: Duration? = nil, dependsOn: [String] = []) -> ServiceSpec {
            var spec = ServiceSpec.testd(name, dependsOn: dependsOn)
            spec.start = .onDemand
            spec.idleExit = idleExit
            spec.environment[DaemonEnvironment.idleExitMinimumUptimeVariable] = "0"
            return spec
        }

        /// `echo` on `client`, answered (the receive timeout bounds the wait, start-up included).
        static func echo(_ client: RawClient, service: String, id: UInt64, text: String, delay: Int = 0) throws
            -> TestEcho.EchoOutput
        {
            try client.send(
                Message.frame(
                    Envelope(kind: .request, correlationID: id, operation: TestEcho(service: service).echo.fullName),
                    body: TestEcho.EchoInput(text: text, delayMilliseconds: delay)))
            guard case .message(let message) = client.receive() else { throw HarnessTimeout("no answer to \(text)") }
            return try message.decodeBody(as: TestEcho.EchoOutput.self)
        }

        @Test func onDemandService_isIdleWithItsSocketHeld_andTheFirstCallerStartsIt_andIsServed() async throws {
            let harness = try EngineHarness([Self.onDemand("lazy")])
            try await harness.start()
            try await harness.waitFor("lazy", .idle)
            let idle = try await harness.status("lazy")
            #expect(idle.state == .idle && idle.pid == nil && !idle.ready, "\(idle)")
            #expect(idle.statusText == "starts at the first connection")
            #expect(access(harness.run.socket(for: "lazy"), F_OK) == 0, "the socket is bound while idle")
            #expect(!harness.events(of: "lazy").contains { $0.state == .starting }, "nothing started it yet")

            // The connect succeeds at once (the held socket's backlog); the answer comes from the new process.
            let connected = ContinuousClock.now
            let client = try RawClient(path: harness.run.socket(for: "lazy"), receiveTimeout: .seconds(30))
            let output = try Self.echo(client, service: "lazy", id: 1, text: "wake up")
            let answered = ContinuousClock.now - connected
            #expect(output.text == "wake up")
            try await harness.waitFor("lazy", .ready)
            #expect(output.servedBy == (try await harness.status("lazy")).pid)
            // For a reader (the bench's on-demand section, in the small): the first answer against the engine's own
            // "ready after" (spawn to READY=1) of the same start.
            let log = readFile(harness.run.log(for: "lazy")) ?? ""
            let ready = log.split(separator: "\n").first { $0.contains("ready after") }.map {
                $0.split(separator: " ").suffix(2).joined(separator: " ")
            }
            print("on-demand lazy: connect to first answer \(answered); spawn to READY=1 \(ready ?? "?")")
            await harness.shutdown()
        }

        @Test func dependentOfAnOnDemandService_startsAtOnce_andItsCallStartsTheDependency() async throws {
            let harness = try EngineHarness([Self.onDemand("base"), .testd("top", dependsOn: ["base"])])
            try await harness.start()
            try await harness.waitFor("top", .ready)
            #expect(try await harness.status("base").state == .idle, "top did not wait for base, nor start it")

            let client = try RawClient(path: harness.run.socket(for: "top"), receiveTimeout: .seconds(30))
            try client.send(
                Message.frame(
                    Envelope(kind: .request, correlationID: 1, operation: TestEcho(service: "top").relay.fullName),
                    body: TestEcho.RelayInput(target: "base", text: "through top")))
            guard case .message(let message) = client.receive() else { throw HarnessTimeout("no answer from top") }
            let output = try message.decodeBody(as: TestEcho.RelayOutput.self)
            #expect(output.echoed.text == "through top")
            try await harness.waitFor("base", .ready)
            #expect(output.echoed.servedBy == (try await harness.status("base")).pid)
            await harness.shutdown()
        }

        @Test func idleExit_isACleanStop_thatWaitsForTheNextCaller_whoStartsItAgain() async throws {
            let harness = try EngineHarness([Self.onDemand("nap", idleExit: .seconds(1))])
            try await harness.start()
            try await harness.waitFor("nap", .idle)
            let client = try RawClient(path: harness.run.socket(for: "nap"), receiveTimeout: .seconds(30))
            let first = try Self.echo(client, service: "nap", id: 1, text: "one")

            // Left alone with its connection open, it exits 0 after a second and is idle again.
            try await harness.waitFor("nap", .idle, count: 2)
            // The kept connection was closed with the idle error: retryable, nothing on it unread.
            let closing = try #require(client.receiveError())
            #expect(closing.envelope.correlationID == 0 && closing.error.code == .unavailable, "\(closing.error)")
            #expect(closing.error.details.contains(ServiceError.unreadDetail))
            let status = try await harness.status("nap")
            #expect(status.lastExit == "exited with status 0" && status.exitReason == .exit, "\(status)")
            #expect(status.restarts == 0 && status.restartsInWindow == 0, "a clean stop, not a restart")
            #expect(!harness.events(of: "nap").contains { $0.state == .backoff || $0.state == .failed })

            let again = try RawClient(path: harness.run.socket(for: "nap"), receiveTimeout: .seconds(30))
            let second = try Self.echo(again, service: "nap", id: 1, text: "two")
            #expect(second.text == "two" && second.servedBy != first.servedBy)
            let log = readFile(harness.run.log(for: "nap")) ?? ""
            #expect(log.contains("exited cleanly: idle until the next caller connects"), "\(log)")
            await harness.shutdown()
        }

        @Test func aRequestInFlight_keepsItUp_pastItsIdleExit() async throws {
            let harness = try EngineHarness([Self.onDemand("busy", idleExit: .seconds(1))])
            try await harness.start()
            let client = try RawClient(path: harness.run.socket(for: "busy"), receiveTimeout: .seconds(30))
            // Three times its idle exit in one request: answered, by the process that took it.
            let output = try Self.echo(client, service: "busy", id: 1, text: "slow", delay: 3_000)
            #expect(output.text == "slow")
            let ready = try await harness.waitFor("busy", .ready)
            #expect(output.servedBy == ready.pid.map(Int.init))
            #expect(harness.events(of: "busy").filter { $0.state == .idle }.count == 1, "no exit while it ran")
            try await harness.waitFor("busy", .idle, count: 2)
            await harness.shutdown()
        }

        @Test func anOpenStream_keepsItUp_untilCancelled() async throws {
            let harness = try EngineHarness([Self.onDemand("stream", idleExit: .seconds(1))])
            try await harness.start()
            let client = try RawClient(path: harness.run.socket(for: "stream"), receiveTimeout: .seconds(30))
            try client.send(
                Message.frame(
                    Envelope(kind: .request, correlationID: 5, operation: TestEcho(service: "stream").count.fullName),
                    body: TestEcho.CountInput(count: 0, delayMilliseconds: 200)))
            // Fifteen events 200 ms apart: three seconds of an open stream, three times its idle exit.
            var last = 0
            while last < 15 {
                guard case .message(let message) = client.receive(), message.envelope.kind == .event else {
                    throw HarnessTimeout("the stream ended after \(last) events")
                }
                last = try message.decodeBody(as: TestEcho.CountEvent.self).index
            }
            #expect(harness.events(of: "stream").filter { $0.state == .idle }.count == 1, "no exit while it streamed")
            #expect(harness.events(of: "stream").filter { $0.state == .starting }.count == 1)
            try client.send(Message.frame(Envelope(kind: .cancel, correlationID: 5), rawBody: EmptyCollection()))
            try await harness.waitFor("stream", .idle, count: 2)
            await harness.shutdown()
        }

        @Test func livenessChecks_doNotKeepItUp_andAnAlwaysStartedServiceWithAnIdleExit_waitsForItsNextCaller()
            async throws
        {
            var spec = ServiceSpec.testd("checked")
            spec.idleExit = .seconds(1)
            spec.environment[DaemonEnvironment.idleExitMinimumUptimeVariable] = "0"
            spec.liveness = LivenessCheck(interval: .milliseconds(100), timeout: .seconds(5), failures: 2)
            let harness = try EngineHarness([spec])
            try await harness.start()
            let ready = try await harness.waitFor("checked", .ready)
            // Started with the suite, checked ten times a second, and still idle after a second.
            try await harness.waitFor("checked", .idle)
            let status = try await harness.status("checked")
            #expect(status.exitReason == .exit && status.lastExit == "exited with status 0", "\(status)")
            let log = readFile(harness.run.log(for: "checked")) ?? ""
            #expect(!log.contains("liveness:"), "\(log)")

            let client = try RawClient(path: harness.run.socket(for: "checked"), receiveTimeout: .seconds(30))
            let output = try Self.echo(client, service: "checked", id: 1, text: "back")
            #expect(output.servedBy != ready.pid.map(Int.init))
            await harness.shutdown()
        }

        @Test func operatorStop_ofAnIdleService_closesItsSocket_andStartStartsItAtOnce() async throws {
            let harness = try EngineHarness([Self.onDemand("lazy")])
            try await harness.start()
            try await harness.waitFor("lazy", .idle)
            let path = harness.run.socket(for: "lazy")
            let stopped = try await harness.engine.stopService("lazy")
            #expect(stopped.state == .stopped)
            #expect(access(path, F_OK) != 0, "stopped is not idle: the socket is gone, a call fails at once")
            #expect(throws: (any Error).self) { try RawClient(path: path) }

            _ = try await harness.engine.startService("lazy")
            try await harness.waitFor("lazy", .ready)
            let client = try RawClient(path: path, receiveTimeout: .seconds(30))
            #expect(try Self.echo(client, service: "lazy", id: 1, text: "started").text == "started")
            await harness.shutdown()
        }
    }
}
