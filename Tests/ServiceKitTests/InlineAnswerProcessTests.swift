import ProcessTesting
import ServiceKit
import Testing
import TestSupport
import Wire

/// The host answers a handler that never suspends within the read callback, filing a request in
/// flight only once its handler suspends: requests answered inline must leave a suspended one
/// on the same connection to its own deadline or cancellation, and must not be mistaken for it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct InlineAnswerProcessTests {
    let echo = TestEcho()

    @Test func inlineAnswers_whileOneIsSuspended_eachGetsItsOwnAndTheSuspendedOneMeetsItsDeadline() async throws {
        let suite = try SuiteFixture()
        try suite.start()
        let client = suite.client
        let echo = self.echo
        // A deadline long enough that no stall of a loaded machine lets it pass before the scrape
        // below sees the request suspended, and short enough for the test to wait it out.
        let slow = Task {
            try await client.call(echo.echo, .init(text: "slow", delayMilliseconds: 60_000), timeout: .seconds(10))
        }
        #expect(try await HostProcessTests.waitUntilInFlight(client, service: echo.service, atLeast: 1))
        for index in 0..<20 {
            let output = try await client.call(echo.echo, .init(text: "inline \(index)"))
            #expect(output.text == "inline \(index)")
        }
        let result = await slow.result
        #expect((result.failure as? ServiceError)?.code == .deadlineExceeded)
        #expect(try await client.call(echo.echo, .init(text: "after")).text == "after")
    }

    @Test func suspendedHandler_cancelledByItsCaller_isCancelledWhileInlineAnswersGoOn() async throws {
        let suite = try SuiteFixture()
        try suite.start()
        let client = suite.client
        let echo = self.echo
        let slow = Task {
            try await client.call(echo.echo, .init(text: "slow", delayMilliseconds: 60_000), timeout: .seconds(30))
        }
        #expect(try await HostProcessTests.waitUntilInFlight(client, service: echo.service, atLeast: 1))
        #expect(try await client.call(echo.echo, .init(text: "inline")).text == "inline")
        slow.cancel()
        let result = await slow.result
        #expect((result.failure as? ServiceError)?.code == .cancelled)
        // The callee got the cancel frame: its handler was cancelled and is no longer in flight.
        #expect(try await Self.waitUntilIdle(client, service: echo.service))
        #expect(try await client.call(echo.echo, .init(text: "after")).text == "after")
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
