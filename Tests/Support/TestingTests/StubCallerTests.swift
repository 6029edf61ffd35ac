import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A stub of `vt-testd`'s contract, served as `echo`.
@Suite("StubCaller")
struct StubCallerTests {
    let echo = TestEcho(service: "echo")

    @Test func anUnstubbedCall_failsTheTestNamingTheCall_andThrowsUnimplemented() async {
        let caller = StubCaller()
        var thrown: ServiceError?
        await withKnownIssue {
            do {
                _ = try await caller.call(echo.echo, .init(text: "ada"))
            } catch {
                thrown = error as? ServiceError
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("unexpected call echo.echo(") }
        }
        #expect(thrown?.code == .unimplemented)
        #expect(thrown?.message.contains("echo.echo") == true)
        #expect(caller.calls == ["echo.echo"])
    }

    @Test func aStubbedCall_isAnsweredThroughTheWireForm() async throws {
        let caller = StubCaller().on(echo.echo) { input in
            TestEcho.EchoOutput(text: input.text.uppercased(), servedBy: 7)
        }

        let answer = try await caller.call(echo.echo, .init(text: "ada"))

        #expect(answer == TestEcho.EchoOutput(text: "ADA", servedBy: 7))
    }

    @Test func aStubbedRefusal_reachesTheCallerAsItIs() async {
        let caller = StubCaller().on(echo.echo) { (_: TestEcho.EchoInput) throws(ServiceError) -> TestEcho.EchoOutput in
            throw ServiceError(.unauthenticated, "log in again")
        }

        await #expect(throws: ServiceError(.unauthenticated, "log in again")) {
            try await caller.call(echo.echo, .init(text: "stale"))
        }
    }
}

@Suite("TestClock")
struct TestClockTests {
    @Test func standsStill_untilTheTestMovesIt() {
        let clock = TestClock()
        #expect(clock.now == TestClock.start)
        clock.advance(.seconds(90))
        #expect(clock.read() == TestClock.start.adding(.seconds(90)))
    }
}
