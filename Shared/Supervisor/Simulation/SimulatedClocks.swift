/// The three clocks a supervisor reads on Linux, as one value the simulator advances:
/// libuv's timers run on the monotonic clock, which stops while the machine is suspended;
/// `ContinuousClock` (the core's instants: readiness, the restart budget's window) counts the
/// suspend; the wall clock (`readySince`) follows the continuous one but jumps, both ways, when
/// it is set. After a suspend the first two diverge for good.
struct SimulatedClocks: Sendable, Equatable {
    /// Since the run began, on the monotonic clock (libuv's timers).
    private(set) var monotonic: Duration = .zero
    /// Since the run began, on the continuous clock (suspends included).
    private(set) var continuous: Duration = .zero
    /// Since the run began, by the wall clock, which may be set back.
    private(set) var wall: Duration = .zero
    /// The continuous clock's reading the run's instants count from.
    let origin: ContinuousClock.Instant

    /// Clocks that all read zero at `origin`.
    init(origin: ContinuousClock.Instant) {
        self.origin = origin
    }

    /// The core's reading of now.
    var now: ContinuousClock.Instant { origin + continuous }

    /// Time passes with the machine awake: every clock moves on.
    mutating func advance(by duration: Duration) {
        monotonic += duration
        continuous += duration
        wall += duration
    }

    /// The machine sleeps for `duration`: the monotonic clock (and every libuv timer) stands still.
    mutating func suspend(for duration: Duration) {
        continuous += duration
        wall += duration
    }

    /// Someone sets the wall clock, forward or back.
    mutating func setWall(by jump: Duration) {
        wall += jump
    }
}
