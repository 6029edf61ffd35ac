import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A host and a client in separate processes over a real Unix socket: every answer path.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct HostProcessTests {
    let echo = TestEcho()

    @Test func call_givenARunningDaemon_returnsTheTypedOutput() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start()
        let output = try await suite.client.call(echo.echo, .init(text: "hello"))
        #expect(output == .init(text: "hello", servedBy: Int(daemon.pid)))
    }

    @Test func call_manyInFlightOnOneConnection_answersOutOfOrderEachToItsCaller() async throws {
        let suite = try SuiteFixture.servingEcho()
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            let client = suite.client
            let echo = self.echo
            for index in 0..<50 {
                group.addTask {
                    // Later calls finish first: the delays run backwards.
                    let output = try await client.call(
                        echo.echo, .init(text: "call \(index)", delayMilliseconds: (50 - index) * 4))
                    return (index, output.text)
                }
            }
            var collected: [(Int, String)] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 50)
        for (index, text) in results { #expect(text == "call \(index)") }
    }

    @Test func call_unknownOperation_answersUnimplementedAndKeepsTheConnection() throws {
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket())
        try raw.sendRequest(id: 1, operation: "echo.nope", body: [])
        let answer = try #require(raw.receiveError())
        #expect(answer.envelope.correlationID == 1)
        #expect(answer.error.code == .unimplemented)
        #expect(answer.error.message.contains("echo.nope"))
        try raw.sendRequest(id: 2, operation: "echo.echo", body: TestEcho.EchoInput(text: "still here").encodedBody())
        guard case .message(let message) = raw.receive() else {
            Issue.record("no answer after the error")
            return
        }
        #expect(message.envelope.kind == .response)
        #expect(try message.decodeBody(as: TestEcho.EchoOutput.self).text == "still here")
    }

    @Test func call_undecodableBody_answersInvalidInputNamingTheField() throws {
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket())
        // Field 1 (text) sent as a varint instead of a string.
        try raw.sendRequest(id: 7, operation: "echo.echo", body: [0x08, 0x01])
        let answer = try #require(raw.receiveError())
        #expect(answer.envelope.correlationID == 7)
        #expect(answer.error.code == .invalidInput)
        #expect(answer.error.message.contains("test.EchoInput.text"))
        try raw.sendRequest(id: 8, operation: "echo.echo", body: [])
        let missing = try #require(raw.receiveError())
        #expect(missing.error.code == .invalidInput)
        #expect(missing.error.message.contains("required field is missing"))
    }

    @Test(arguments: [ErrorCode.notFound, .conflict, .permissionDenied, .unavailable])
    func call_handlerThrowsServiceError_callerGetsTheSameCodeAndMessage(code: ErrorCode) async throws {
        let suite = try SuiteFixture.servingEcho()
        let error = await #expect(throws: ServiceError.self) {
            try await suite.client.call(echo.fail, .init(code: code, message: "because \(code)"))
        }
        #expect(error?.code == code)
        #expect(error?.message == "because \(code)")
        #expect(error?.retryable == code.isRetryableByDefault)
    }

    @Test func call_handlerThrowsUntypedError_answersInternalWithoutLeakingIt() async throws {
        let suite = try SuiteFixture.servingEcho()
        let error = await #expect(throws: ServiceError.self) {
            try await suite.client.call(echo.throwUntyped, Empty())
        }
        #expect(error?.code == .internal)
        #expect(error?.message.contains("Untyped()") == false)
        #expect(error?.message == "internal error while serving echo.throwUntyped")
    }

    @Test func call_missedDeadline_answersDeadlineExceededAndTheConnectionServesOn() async throws {
        let suite = try SuiteFixture.servingEcho()
        let start = ContinuousClock.now
        let error = await #expect(throws: ServiceError.self) {
            try await suite.client.call(
                echo.echo, .init(text: "slow", delayMilliseconds: 600_000), timeout: .milliseconds(200))
        }
        #expect(error?.code == .deadlineExceeded)
        // At the deadline, not when the handler's ten minutes are up (a loaded machine's stalls, 31 s
        // seen, stay far below this bound).
        #expect(ContinuousClock.now - start < .seconds(90))
        let after = try await suite.client.call(echo.echo, .init(text: "next"))
        #expect(after.text == "next")
    }

    @Test func host_givenAnExpiredDeadlineOnTheWire_answersDeadlineExceededItself() throws {
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket())
        let body = TestEcho.EchoInput(text: "x", delayMilliseconds: 2_000).encodedBody()
        try raw.sendRequest(id: 3, operation: "echo.echo", body: body, deadlineMicroseconds: 100_000)
        let answer = try #require(raw.receiveError())
        #expect(answer.envelope.correlationID == 3)
        #expect(answer.error.code == .deadlineExceeded)
    }

    @Test func host_shorterDeadlineAfterALongerOne_isAnsweredAtItsOwnDeadline() throws {
        // One deadline check per connection, armed for the earliest deadline: a later request with
        // an earlier deadline must move it forward. Were it not, request 2 would be answered by
        // its handler after 20 s (a response), not at its 150 ms deadline (a margin no stall of
        // a loaded machine reaches).
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket(), receiveTimeout: .seconds(30))
        let slow = TestEcho.EchoInput(text: "x", delayMilliseconds: 20_000).encodedBody()
        try raw.sendRequest(id: 1, operation: "echo.echo", body: slow, deadlineMicroseconds: 60_000_000)
        try raw.sendRequest(id: 2, operation: "echo.echo", body: slow, deadlineMicroseconds: 150_000)
        let answer = try #require(raw.receiveError())
        #expect(answer.envelope.correlationID == 2)
        #expect(answer.error.code == .deadlineExceeded)
        // Nothing left in flight, so the daemon stops at once when the fixture ends.
        try raw.send(Message.frame(Envelope(kind: .cancel, correlationID: 1), rawBody: EmptyCollection()))
    }

    /// A caller cancels request 5 and at once uses id 5 again. The first handler ends on its
    /// cancellation after the second request is filed under the same id: its late answer must not
    /// take the second request's place, nor be sent as the answer to it.
    @Test func host_idUsedAgainAfterACancel_isAnsweredByItsOwnRequest() throws {
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket(), receiveTimeout: .seconds(30))
        let first = TestEcho.EchoInput(text: "first", delayMilliseconds: 20_000).encodedBody()
        try raw.sendRequest(id: 5, operation: "echo.echo", body: first)
        // The cancel and the new request in one write: read in one turn, so the second request is
        // filed before the first handler, woken by its cancellation, can answer.
        let second = TestEcho.EchoInput(text: "second", delayMilliseconds: 200).encodedBody()
        try raw.send(
            Message.frame(Envelope(kind: .cancel, correlationID: 5), rawBody: EmptyCollection())
                + Message.frame(Envelope(kind: .request, correlationID: 5, operation: "echo.echo"), rawBody: second))
        guard case .message(let answer) = raw.receive() else {
            Issue.record("no answer to the second request 5")
            return
        }
        #expect(answer.envelope.correlationID == 5)
        #expect(answer.envelope.kind == .response, "answered \(answer.envelope.kind), the first request's end")
        if answer.envelope.kind == .response {
            #expect(try answer.decodeBody(as: TestEcho.EchoOutput.self).text == "second")
        }
        // One answer for it, and nothing after: a ping's answer comes next.
        try raw.sendRequest(id: 6, operation: "echo.echo", body: TestEcho.EchoInput(text: "after").encodedBody())
        guard case .message(let next) = raw.receive() else {
            Issue.record("no answer to request 6")
            return
        }
        #expect(next.envelope.correlationID == 6)
    }

    @Test func host_garbageFrame_answersProtocolErrorClosesThatConnectionAndServesOthers() async throws {
        let suite = try SuiteFixture.servingEcho()
        let bad = try RawClient(path: suite.socket())
        try bad.send([0, 0, 0, 5, 0xde, 0xad, 0xbe, 0xef, 0x42])
        let answer = try #require(bad.receiveError())
        #expect(answer.envelope.correlationID == 0)
        #expect(answer.error.code == .protocolError)
        guard case .closed = bad.receive() else {
            Issue.record("the connection stayed open after a protocol error")
            return
        }
        #expect(try await suite.client.call(echo.echo, .init(text: "ok")).text == "ok")
    }

    /// Length prefixes no receiver accepts: 4 GiB - 1, 4 MiB + 1 (one past the default limit), and 0.
    static let badLengths: [[UInt8]] = [[0xff, 0xff, 0xff, 0xff], [0, 0x40, 0, 1], [0, 0, 0, 0]]

    @Test(arguments: badLengths)
    func host_badLength_answersProtocolErrorAndCloses(prefix: [UInt8]) async throws {
        let suite = try SuiteFixture.servingEcho()
        let bad = try RawClient(path: suite.socket())
        try bad.send(prefix + [1, 2, 3])
        let answer = try #require(bad.receiveError())
        #expect(answer.error.code == .protocolError)
        guard case .closed = bad.receive() else {
            Issue.record("the connection stayed open after a bad length")
            return
        }
        #expect(try await suite.client.call(echo.echo, .init(text: "ok")).text == "ok")
    }

    @Test func host_pingFrame_answersPongWithTheSameID() async throws {
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket())
        try raw.send(Message.frame(Envelope(kind: .ping, correlationID: 99), rawBody: []))
        guard case .message(let message) = raw.receive() else {
            Issue.record("no pong")
            return
        }
        #expect(message.envelope.kind == .pong)
        #expect(message.envelope.correlationID == 99)
        let roundTrip = try await suite.client.ping("echo")
        #expect(roundTrip < .seconds(5))
    }

    @Test func host_readyNotification_isSentToNotifySocket() throws {
        let suite = try SuiteFixture.servingEcho()
        #expect(suite.notify.waitFor("READY=1"))
    }

    @Test func host_sigterm_drainsInFlightRequestsThenExitsZero() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start()
        // Long enough that the daemon is seen holding it even when this test's task waits its
        // turn behind other suites for a while. SIGTERM only once the daemon holds the request (a
        // fixed sleep lost that race on a loaded CI machine: the connection was still in the
        // backlog, and the drain reset it).
        let slow = try await suite.heldEcho("finish me", delayMilliseconds: 2_500, timeout: nil)
        try await suite.expectSIGTERMDrains(daemon, slow, answering: "finish me", exitWithin: .seconds(5))
        #expect(suite.notify.waitFor("STOPPING=1")) // sent before the exit: queued already, however slow we are to read it
    }

    /// Whether `service` reports at least `count` requests in flight besides the scrape asking
    /// (`daemon.metrics`' `verticals_requests_in_flight` counts the scrape itself), within `wait`
    /// (at least one look; with a wait, at least 20, so a stall of this process that outlasts the
    /// wait still leaves it looks after the stall).
    static func waitUntilInFlight(
        _ client: ServiceClient, service: String, atLeast count: Int, within wait: Duration = .seconds(5)
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + wait
        let minimumLooks = wait == .zero ? 1 : 20
        var looks = 0
        repeat {
            looks += 1
            let body = try await client.callRaw(service: service, operation: Daemon.metrics.fullName, body: [])
            let exposition = try Daemon.Metrics(decoding: body).exposition
            let line = exposition.split(separator: "\n").first { $0.hasPrefix("verticals_requests_in_flight") }
            if let value = line?.split(separator: " ").last.flatMap({ Double($0) }), Int(value) - 1 >= count {
                return true
            }
            try await Task.sleep(for: .milliseconds(10))
        } while ContinuousClock.now < deadline || looks < minimumLooks
        return false
    }

    @Test func host_idle_usesNoCPU() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start()
        _ = try await suite.client.call(echo.echo, .init(text: "warm"))
        try await Task.sleep(for: .milliseconds(200))
        let before = try #require(daemon.cpuTicks())
        try await Task.sleep(for: .seconds(1))
        let after = try #require(daemon.cpuTicks())
        // A polling loop burns ticks every second; a loop blocked in epoll burns none (allow 1 for noise).
        #expect(after - before <= 1)
    }
}
