import Testing
import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

@Suite("StubCaller")
struct StubCallerTests {
    @Test func anUnstubbedCall_failsTheTestNamingTheCall_andThrowsUnimplemented() async {
        let caller = StubCaller()
        var thrown: ServiceError?
        await withKnownIssue {
            do {
                _ = try await caller.call(Identity.authenticate, .init(token: "token-ada"))
            } catch {
                thrown = error as? ServiceError
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("unexpected call identity.authenticate(") }
        }
        #expect(thrown?.code == .unimplemented)
        #expect(thrown?.message.contains("identity.authenticate") == true)
        #expect(caller.calls == ["identity.authenticate"])
    }

    @Test func aStubbedCall_isAnsweredThroughTheWireForm() async throws {
        let caller = StubCaller().on(Identity.getUser) { input in
            Identity.UserProfile(userID: input.userID, displayName: "Ada Lovelace")
        }

        let profile = try await caller.call(Identity.getUser, .init(userID: "u-ada"))

        #expect(profile == Identity.UserProfile(userID: "u-ada", displayName: "Ada Lovelace"))
    }

    @Test func aStubbedRefusal_reachesTheCallerAsItIs() async {
        let caller = StubCaller().on(Identity.authenticate) { (_: Identity.TokenInput) throws(ServiceError) -> Identity.Principal in
            throw ServiceError(.unauthenticated, "log in again")
        }

        await #expect(throws: ServiceError(.unauthenticated, "log in again")) {
            try await caller.call(Identity.authenticate, .init(token: "stale"))
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
