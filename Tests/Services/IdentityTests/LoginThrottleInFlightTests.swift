import Testing
import VerticalsTesting
import VerticalsWire
@testable import IdentityService

/// A caller's attempts in flight count against its failures left (``LoginThrottle``): when both
/// together reach the limit, the next attempt waits for one to end, and is refused only when
/// failures alone reach it; a cancelled wait takes nothing.
@Suite("identity's login limit, with attempts in flight")
struct LoginThrottleInFlightTests {
    static let now = Timestamp(secondsSinceEpoch: 1_000)

    /// A throttle of 2 failures a minute, with 2 attempts of one caller in flight, and a third
    /// of the same caller begun in a task.
    struct Given {
        let throttle = LoginThrottle(limits: LoginThrottle.Limits(failures: 2, window: .seconds(60)))
        let first = LoginThrottle.attempt(email: "ada@example.org", caller: "uid 5")
        let second = LoginThrottle.attempt(email: "grace@example.org", caller: "uid 5")
        let third = LoginThrottle.attempt(email: "alan@example.org", caller: "uid 5")
        let waiting: Task<Void, any Error>

        init() async throws {
            try await throttle.begin(first, at: LoginThrottleInFlightTests.now)
            try await throttle.begin(second, at: LoginThrottleInFlightTests.now)
            let (throttle, third) = (throttle, third)
            waiting = Task { try await throttle.begin(third, at: LoginThrottleInFlightTests.now) }
        }
    }

    @Test func atTheLimitInFlight_theNextWaits_andGoesWhenOneEndsWell() async throws {
        let given = try await Given()
        #expect(await eventuallyAsync { given.throttle.waitingCount == 1 }, "the third attempt waits")

        given.throttle.ended(given.first, at: Self.now)

        try await given.waiting.value
        #expect(given.throttle.waitingCount == 0)
        // In flight now: the second and the third; a fourth waits again.
        let fourth = Task {
            try await given.throttle.begin(LoginThrottle.attempt(email: "x@example.org", caller: "uid 5"), at: Self.now)
        }
        #expect(await eventuallyAsync { given.throttle.waitingCount == 1 })
        fourth.cancel()
        await #expect(throws: CancellationError.self) { try await fourth.value }
    }

    @Test func atTheLimitInFlight_theNextWaits_andIsRefusedWhenFailuresAloneReachIt() async throws {
        let given = try await Given()
        #expect(await eventuallyAsync { given.throttle.waitingCount == 1 })

        given.throttle.failed(given.first, at: Self.now)
        #expect(given.throttle.waitingCount == 1, "one failure and one in flight: still at the limit, still waiting")
        given.throttle.failed(given.second, at: Self.now)

        await #expect(throws: IdentityFailure.tooManyAttempts(retryAfterSeconds: 30)) { try await given.waiting.value }
        #expect(given.throttle.waitingCount == 0)
    }

    @Test func aWaitingAttempt_cancelled_stopsWaiting_andTakesNothing() async throws {
        let given = try await Given()
        #expect(await eventuallyAsync { given.throttle.waitingCount == 1 })

        given.waiting.cancel()

        await #expect(throws: CancellationError.self) { try await given.waiting.value }
        #expect(given.throttle.waitingCount == 0)
        // It took nothing: once the two in flight end well, two attempts go at once.
        given.throttle.ended(given.first, at: Self.now)
        given.throttle.ended(given.second, at: Self.now)
        try await given.throttle.begin(given.first, at: Self.now)
        try await given.throttle.begin(given.second, at: Self.now)
    }

    @Test func attemptsWithNoCaller_neverWait() async throws {
        let throttle = LoginThrottle(limits: LoginThrottle.Limits(failures: 2, window: .seconds(60)))
        for index in 0..<4 {
            try await throttle.begin(LoginThrottle.attempt(email: "p\(index)@example.org", caller: nil), at: Self.now)
        }
        #expect(throttle.waitingCount == 0)
    }
}
