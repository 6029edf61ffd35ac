import Testing

import VerticalsClient
@testable import VerticalsServiceKit

/// The request path's clock reading: the same clock as `ContinuousClock`, arithmetic that
/// saturates instead of trapping, and the wire deadline built on it.
struct MonotonicInstantTests {
    @Test func now_advancesByTheTimeThatPasses() async throws {
        let first = MonotonicInstant.now
        let stdlibFirst = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(30))
        let stdlibElapsed = ContinuousClock.now - stdlibFirst
        let elapsed = MonotonicInstant.now - first
        #expect(elapsed >= .milliseconds(30))
        // Our two reads bracket the standard library's two: with one clock, never less elapsed.
        #expect(elapsed >= stdlibElapsed)
    }

    @Test func addingAndSubtractingADuration_movesByExactlyThatMany() {
        let instant = MonotonicInstant(nanoseconds: 5_000_000_000)
        #expect((instant + .milliseconds(1500)).nanoseconds == 6_500_000_000)
        #expect((instant - .microseconds(3)).nanoseconds == 4_999_997_000)
        #expect(MonotonicInstant(nanoseconds: 7) - MonotonicInstant(nanoseconds: 10) == .nanoseconds(-3))
    }

    @Test func addingCenturies_saturatesInsteadOfTrapping() {
        let now = MonotonicInstant.now
        #expect((now + .seconds(Int64.max)).nanoseconds == .max)
        #expect((MonotonicInstant(nanoseconds: -5) + .seconds(Int64.min)).nanoseconds == .min)
        #expect((MonotonicInstant(nanoseconds: -5) - .seconds(Int64.max)).nanoseconds == .min)
        #expect(now - .seconds(Int64.max) < now, "far in the past is still before now")
    }

    @Test func wireDeadline_roundTripsThroughTheRemainingMicroseconds() {
        let received = MonotonicInstant(nanoseconds: 1_000_000_000)
        let deadline = Deadline(wireMicroseconds: 2_500, receivedAt: received)
        #expect(deadline?.instant == received + .microseconds(2_500))
        #expect(deadline?.wireMicroseconds(at: received) == 2_500)
        #expect(deadline?.wireMicroseconds(at: received + .seconds(1)) == 1, "a passed deadline still travels as 1 µs")
        #expect(Deadline(wireMicroseconds: 0) == nil)
    }

    @Test func wireDeadline_beyondTheClock_saturatesInsteadOfTrapping() {
        let received = MonotonicInstant(nanoseconds: 1_000_000_000)
        // UInt64.max µs does not fit Int64 nanoseconds; Int64.max / 1000 + 1 µs overflows the product;
        // a deadline that fits alone overflows once added to a late enough instant.
        #expect(Deadline(wireMicroseconds: .max, receivedAt: received)?.instant.nanoseconds == .max)
        #expect(
            Deadline(wireMicroseconds: UInt64(Int64.max / 1_000 + 1), receivedAt: received)?.instant.nanoseconds == .max
        )
        let late = MonotonicInstant(nanoseconds: .max - 500)
        #expect(Deadline(wireMicroseconds: 1, receivedAt: late)?.instant.nanoseconds == .max)
        #expect(Deadline(wireMicroseconds: 7, receivedAt: received)?.instant.nanoseconds == 1_000_007_000)
    }
}
