import Synchronization
import VerticalsWire

/// A clock that stands still until the test moves it; hand ``read`` to a World's parts.
///
/// ```swift
/// let clock = TestClock()
/// let world = World(parts: try .test(migrator: Migrations.all, clock: clock))
/// clock.advance(.seconds(3_600))
/// ```
public final class TestClock: Sendable {
    /// 2026-11-23T09:30:00Z, a Monday: where a test clock starts unless told otherwise.
    public static let start = Timestamp(secondsSinceEpoch: 1_795_426_200)

    private let micros: Atomic<Int64>

    /// A clock stopped at `start`.
    public init(at start: Timestamp = TestClock.start) {
        micros = Atomic(start.microsecondsSinceEpoch)
    }

    /// The current test time.
    public var now: Timestamp { Timestamp(microsecondsSinceEpoch: micros.load(ordering: .relaxed)) }

    /// The clock as a World reads it.
    public var read: @Sendable () -> Timestamp { { self.now } }

    /// Moves time forward by `duration`.
    public func advance(_ duration: Duration) {
        micros.wrappingAdd(Timestamp.epoch.adding(duration).microsecondsSinceEpoch, ordering: .relaxed)
    }
}
