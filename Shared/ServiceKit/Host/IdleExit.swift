import Synchronization
import VerticalsClient
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
/// deadline that activity moved.
///
/// With several loops (``HostConfiguration/loops``) requests begin and end on any of them, so
/// the count and the idle clock are atomics: idle means no loop has such a request. The timer
/// lives on the accepting host's loop; a request that ends elsewhere touches it only when the
/// timer fired while that request ran (``parked``), through that loop's queue.
///
/// It never ends the host sooner than ``minimumUptime`` after it started
/// (``HostConfiguration/idleExitMinimumUptime``): a connection in the backlog starts the daemon
/// before anyone is admitted, so this floor, not admission, bounds how often a stranger can
/// cycle it (``deadline(idleSince:after:startedAt:minimumUptime:)``).
final class IdleExit: @unchecked Sendable {
    // @unchecked Sendable: `timer` and `due` are touched only on `loop`'s thread (init, `fire`,
    // `close`, and `ended` when it runs there or hops there with `loop.execute`); the rest is atomic.

    /// How long the host must be idle.
    let after: Duration
    /// How long after ``startedAt`` the host stays up, however idle.
    let minimumUptime: Duration
    /// When the host started (when this clock was made).
    let startedAt = MonotonicInstant.now
    /// Requests in flight that keep the host up, streams included, on every loop.
    private let busyCount = Atomic<Int>(0)
    /// When ``busyCount`` last fell to zero (or the host started), in monotonic nanoseconds.
    private let idleSinceNanoseconds = Atomic<Int64>(MonotonicInstant.now.nanoseconds)
    /// True while the timer is off because it fired during a request: the `ended()` that makes
    /// the host idle arms it again.
    private let parked = Atomic<Bool>(false)
    private let loop: EventLoop
    private var closed = false
    private let timer: LoopTimer
    /// Called on the loop once the host has been idle for ``after``; returns false to be asked
    /// again a little later (a frame is still arriving).
    private let due: () -> Bool

    /// Starts the clock at once: a host that nobody calls exits `after` from now, or
    /// `minimumUptime` from now when that is later. Call on the loop.
    init(after: Duration, minimumUptime: Duration = .zero, loop: EventLoop, due: @escaping () -> Bool) {
        self.after = after
        self.minimumUptime = max(minimumUptime, .zero)
        self.due = due
        self.loop = loop
        timer = LoopTimer(loop: loop)
        arm(after)
    }

    /// When a host idle since `idleSince` may exit: `after` past it, and never before
    /// `minimumUptime` past `startedAt`. However often something starts the host, it runs at
    /// least `minimumUptime` each time, so it starts at most once per `minimumUptime`.
    static func deadline(
        idleSince: MonotonicInstant, after: Duration, startedAt: MonotonicInstant, minimumUptime: Duration
    ) -> MonotonicInstant {
        max(idleSince + after, startedAt + minimumUptime)
    }

    /// Requests in flight that keep the host up, on every loop.
    var busy: Int { busyCount.load(ordering: .sequentiallyConsistent) }

    /// A request that keeps the host up began (on any of the host's loops).
    func began() {
        busyCount.add(1, ordering: .sequentiallyConsistent)
    }

    /// Such a request ended (answered, cancelled, abandoned or past its deadline), on any loop.
    func ended() {
        guard busyCount.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 else { return }
        idleSinceNanoseconds.store(MonotonicInstant.now.nanoseconds, ordering: .sequentiallyConsistent)
        if loop.inEventLoop {
            parked.store(false, ordering: .sequentiallyConsistent)
            if !timer.isActive { arm(after) }
        } else if parked.exchange(false, ordering: .sequentiallyConsistent) {
            loop.execute { [self] in
                if !closed, busy == 0, !timer.isActive { arm(after) }
            }
        }
    }

    /// Stops for good (the host is stopping anyway). On the loop.
    func close() {
        closed = true
        timer.close()
    }

    private func arm(_ delay: Duration) {
        timer.start(after: delay) { [weak self] in self?.fire() }
    }

    private func fire() {
        // Busy: armed again by the `ended()` that makes it idle. Parked before the count is read,
        // so an `ended()` on another loop that the read missed sees it parked.
        parked.store(true, ordering: .sequentiallyConsistent)
        guard busy == 0 else { return }
        parked.store(false, ordering: .sequentiallyConsistent)
        let deadline = Self.deadline(
            idleSince: MonotonicInstant(nanoseconds: idleSinceNanoseconds.load(ordering: .sequentiallyConsistent)),
            after: after, startedAt: startedAt, minimumUptime: minimumUptime)
        let now = MonotonicInstant.now
        if now < deadline {
            arm(deadline - now)
        } else if !due() {
            arm(min(after, .seconds(1)))
        }
    }
}
