import VerticalsEventLoop

/// `VERTICALS_IDLE_EXIT_SECONDS` (the manifest's `idle_exit`): the host exits once it has been
/// idle that long. Idle is exact: no request in flight and no open stream. A connection kept
/// open between calls, a wire `ping` and the observing built-ins (``ServedOperation/observing``:
/// the supervisor's liveness check, a metrics scrape, `describe`) do not keep it up.
///
/// One timer, armed only while the host is idle, for the deadline: an idle daemon wakes once,
/// at that deadline, and exits (never periodically; `IdleWakeUpTests`). The request path pays
/// two integer updates and, when the last request ends, a clock read: the timer is not stopped
/// at each request. When it fires while a request runs it stays off until the host is idle
/// again; when it fires early (there was activity since it was armed) it is armed again for the
/// deadline that activity moved. Loop-confined.
final class IdleExit {
    /// How long the host must be idle.
    let after: Duration
    /// Requests in flight that keep the host up, streams included.
    private(set) var busy = 0
    /// When ``busy`` last fell to zero (or the host started).
    private var idleSince = MonotonicInstant.now
    private let timer: LoopTimer
    /// Called on the loop once the host has been idle for ``after``; returns false to be asked
    /// again a little later (a frame is still arriving).
    private let due: () -> Bool

    /// Starts the clock at once: a host that nobody calls exits `after` from now. Call on the loop.
    init(after: Duration, loop: EventLoop, due: @escaping () -> Bool) {
        self.after = after
        self.due = due
        timer = LoopTimer(loop: loop)
        arm(after)
    }

    /// A request that keeps the host up began.
    func began() {
        busy += 1
    }

    /// Such a request ended (answered, cancelled, abandoned or past its deadline).
    func ended() {
        busy -= 1
        guard busy == 0 else { return }
        idleSince = .now
        if !timer.isActive { arm(after) }
    }

    /// Stops for good (the host is stopping anyway).
    func close() {
        timer.close()
    }

    private func arm(_ delay: Duration) {
        timer.start(after: delay) { [weak self] in self?.fire() }
    }

    private func fire() {
        // Busy: armed again by the `ended()` that makes it idle.
        guard busy == 0 else { return }
        let deadline = idleSince + after
        let now = MonotonicInstant.now
        if now < deadline {
            arm(deadline - now)
        } else if !due() {
            arm(min(after, .seconds(1)))
        }
    }
}
