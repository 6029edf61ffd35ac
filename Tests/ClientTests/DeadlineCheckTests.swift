import Testing

import VerticalsClient
@testable import VerticalsServiceKit

/// The sweep behind ``DeadlineCheck``: which deadlines are due, and which one to watch next.
struct DeadlineCheckTests {
    @Test func sweep_givenPastFutureAndAbsentDeadlines_returnsThePastAsDueAndTheEarliestFutureAsNext() {
        let now = MonotonicInstant.now
        let deadlines: [(String, MonotonicInstant?)] = [
            ("past", now - .seconds(1)), ("later", now + .seconds(20)), ("none", nil), ("soon", now + .seconds(10)),
            ("justDue", now + .microseconds(200)),
        ]
        let (due, next) = DeadlineCheck.sweep(deadlines)
        // Within the timer's 1 ms granularity counts as due, as TimerQueue's own entries do.
        #expect(Set(due) == ["past", "justDue"])
        #expect(next == now + .seconds(10))
    }

    @Test func sweep_givenNothingPending_returnsNothingToWatch() {
        let (due, next) = DeadlineCheck.sweep([(UInt64, MonotonicInstant?)]())
        #expect(due.isEmpty)
        #expect(next == nil)
    }
}
