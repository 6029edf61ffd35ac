#if canImport(Glibc)
import Glibc
#endif

/// A reading of the clock `ContinuousClock` reads on Linux (`CLOCK_BOOTTIME`: monotonic, and it
/// keeps counting while the host sleeps), held as nanoseconds.
///
/// The request path keeps one or two per request in flight (when it started, its deadline).
/// `ContinuousClock.Instant` is a resilient standard-library type, so every copy or destruction
/// of a struct that holds one, above all an optional one, went through the runtime's generic
/// value witnesses: about a tenth of a server's CPU per request, measured with `perf`. This is a
/// plain integer, copied as one.
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Nanoseconds since the clock's epoch (the host's boot).
    public let nanoseconds: Int64

    /// The instant `nanoseconds` after the clock's epoch.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Now (one vDSO call, no syscall).
    public static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }

    /// `duration` later (saturating: a duration of centuries is "never", not an overflow).
    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant.advanced(byNanoseconds: duration.wholeNanoseconds)
    }

    /// This instant moved by `nanoseconds`, held at the ends of the range rather than wrapping:
    /// for a duration converted once (``Duration/wholeNanoseconds``), since a `Duration`'s
    /// 128-bit components cost ~180 instructions at each addition.
    func advanced(byNanoseconds nanoseconds: Int64) -> MonotonicInstant {
        let (sum, overflow) = self.nanoseconds.addingReportingOverflow(nanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? (nanoseconds < 0 ? .min : .max) : sum)
    }

    /// `duration` earlier.
    public static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant + (.zero - duration)
    }

    /// How long from `earlier` to `later` (negative when `later` is before `earlier`).
    public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        .nanoseconds(later.nanoseconds &- earlier.nanoseconds)
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}

extension Duration {
    /// This duration in whole nanoseconds, saturating at `Int64`'s range (about 292 years).
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflowAgain else { return seconds < 0 ? .min : .max }
        return sum
    }
}
