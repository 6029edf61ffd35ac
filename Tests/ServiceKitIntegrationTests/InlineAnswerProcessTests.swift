import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The host answers a handler that never suspends within the read callback, filing a request in
/// flight only once its handler suspends: requests answered inline must leave a suspended one
/// on the same connection to its own deadline or cancellation, and must not be mistaken for it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct InlineAnswerProcessTests {
    let echo = TestEcho()

    @Test func inlineAnswers_whileOneIsSuspended_eachGetsItsOwnAndTheSuspendedOneMeetsItsDeadline() async throws {
        let suite = try SuiteFixture.servingEcho()
        let client = suite.client
        let echo = self.echo
        // A deadline long enough that no stall of a loaded machine lets it pass before the scrape
        // sees the request suspended, and short enough for the test to wait it out. Any look
        // before its deadline will do: at the start of a full run, with every suite starting at
        // once, this process once stalled for about 9 s, and a 5 s look missed it.
        let slow = try await suite.heldEcho("slow", timeout: .seconds(20), inFlightWithin: .seconds(18))
        for index in 0..<20 {
            let output = try await client.call(echo.echo, .init(text: "inline \(index)"))
            #expect(output.text == "inline \(index)")
        }
        let result = await slow.result
        #expect((result.failure as? ServiceError)?.code == .deadlineExceeded)
        #expect(try await client.call(echo.echo, .init(text: "after")).text == "after")
    }

    @Test func suspendedHandler_cancelledByItsCaller_isCancelledWhileInlineAnswersGoOn() async throws {
        let suite = try SuiteFixture.servingEcho()
        let client = suite.client
        let echo = self.echo
        let slow = try await suite.heldEcho("slow", timeout: .seconds(30))
        #expect(try await client.call(echo.echo, .init(text: "inline")).text == "inline")
        slow.cancel()
        let result = await slow.result
        #expect((result.failure as? ServiceError)?.code == .cancelled)
        // The callee got the cancel frame: its handler was cancelled and is no longer in flight.
        #expect(try await Self.waitUntilIdle(client, service: echo.service))
        #expect(try await client.call(echo.echo, .init(text: "after")).text == "after")
    }

    /// Frames that arrive in one read are served in one task while none suspends: one that
    /// suspends among them must leave the ones after it answered, and be the only one a cancel
    /// reaches.
    @Test func oneReadOfRequests_withOneThatSuspends_answersTheOthersAndCancelsOnlyThatOne() async throws {
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket(echo.service), receiveTimeout: .seconds(30))
        func request(_ id: UInt64, _ text: String, delay: Int = 0) -> [UInt8] {
            Message.frame(
                Envelope(kind: .request, correlationID: id, operation: echo.echo.fullName),
                body: TestEcho.EchoInput(text: text, delayMilliseconds: delay))
        }
        // One write: the daemon reads them together (65 small frames, far below a read's buffer).
        var bytes = request(1, "first") + request(2, "slow", delay: 60_000)
        for id in 3...65 { bytes += request(UInt64(id), "after \(id)") }
        try raw.send(bytes)
        let responses = raw.receiveResponses(64)
        guard responses.count == 64 else {
            Issue.record("expected 64 answers, got \(responses.count)")
            return
        }
        var answered: [UInt64: String] = [:]
        for message in responses {
            answered[message.envelope.correlationID] = try message.decodeBody(as: TestEcho.EchoOutput.self).text
        }
        #expect(answered[1] == "first")
        #expect(answered[2] == nil)
        #expect((3...65).allSatisfy { answered[UInt64($0)] == "after \($0)" })

        try raw.send(Message.frame(Envelope(kind: .cancel, correlationID: 2), rawBody: EmptyCollection()))
        try raw.send(request(66, "still serving"))
        guard case .message(let last) = raw.receive() else {
            Issue.record("no answer after the cancel")
            return
        }
        #expect(last.envelope.correlationID == 66)
        #expect(try await Self.waitUntilIdle(suite.client, service: echo.service))
    }

    /// Whether `service` reports nothing in flight besides the scrape asking, within 30 s (the
    /// handler sleeps a minute: idle before then means the cancel reached it).
    static func waitUntilIdle(_ client: ServiceClient, service: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await !HostProcessTests.waitUntilInFlight(client, service: service, atLeast: 1, within: .zero) {
                return true
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
