/// The instant by which a call must be answered, on the monotonic clock.
///
/// A deadline travels on the wire as the *remaining* time (`Envelope.deadlineMicroseconds`),
/// so clocks of different processes never need to agree.
public struct Deadline: Sendable, Hashable, Comparable {
    /// The instant, on the clock `ContinuousClock` reads.
    public let instant: MonotonicInstant

    /// A deadline at `instant`.
    public init(_ instant: MonotonicInstant) {
        self.instant = instant
    }

    /// A deadline `duration` from now.
    public static func after(_ duration: Duration) -> Deadline {
        Deadline(.now + duration)
    }

    /// Time left; zero or negative once passed.
    public var remaining: Duration { instant - .now }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { instant <= .now }

    /// The remaining time as the envelope carries it: microseconds, at least 1 (0 would mean "none").
    public var wireMicroseconds: UInt64 {
        wireMicroseconds(at: .now)
    }

    /// ``wireMicroseconds`` as of `now`, for a caller that has just read the clock.
    public func wireMicroseconds(at now: MonotonicInstant) -> UInt64 {
        UInt64(max(1, (instant.nanoseconds &- now.nanoseconds) / 1_000))
    }

    /// The deadline a received envelope carries, measured from `receivedAt`.
    /// In integer nanoseconds, saturating at the clock's end: every request with a deadline
    /// makes one, and `Duration`'s 128-bit arithmetic cost it about 600 instructions.
    public init?(wireMicroseconds: UInt64, receivedAt: MonotonicInstant = .now) {
        guard wireMicroseconds > 0 else { return nil }
        let (nanoseconds, tooLong) = Int64(clamping: wireMicroseconds).multipliedReportingOverflow(by: 1_000)
        let (sum, overflow) = receivedAt.nanoseconds.addingReportingOverflow(nanoseconds)
        instant = MonotonicInstant(nanoseconds: tooLong || overflow ? .max : sum)
    }

    public static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.instant < rhs.instant }

    /// The earlier of two optional deadlines.
    public static func earliest(_ lhs: Deadline?, _ rhs: Deadline?) -> Deadline? {
        switch (lhs, rhs) {
        case (nil, let other), (let other, nil): other
        case (let left?, let right?): min(left, right)
        }
    }
}
