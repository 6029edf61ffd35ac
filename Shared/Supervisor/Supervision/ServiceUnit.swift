import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisorClient
import VerticalsWire

/// The supervisor's record of one service: its spec, where it is in its life, and the handles
/// that outlive its processes (listening socket, log, timers). Part of the engine's state: only
/// the engine touches it, inside its isolation.
final class ServiceUnit {
    var spec: ServiceSpec {
        didSet {
            machine.configure(
                restart: spec.restart, backoff: spec.backoff, budget: spec.budget,
                notifiesReady: spec.readiness == .notify,
                startsOnDemand: spec.startsOnDemand)
            replica?.machine.configure(backoff: spec.backoff, budget: spec.budget)
        }
    }
    /// Where it is in its life: every change of state is an event fed to it
    /// (``SupervisorEngine/transition(_:_:)``).
    var machine: ServiceStateMachine
    /// The state `status` shows.
    var state: Supervisor.ServiceState { machine.state.wire }
    /// Whether it should run: set by start, cleared by stop, `down` and a spent budget.
    var wanted: Bool { machine.wanted }
    /// The `upgrade` under way, from the new process's start until it is ready or has failed.
    var upgrade: UpgradeRun?

    var child: ChildProcess?
    var pid: Int32?
    /// The uid ``pid`` runs as: its own user's (`user =`), else the supervisor's. A notify
    /// datagram counts only when the kernel names both as its sender.
    var uid: UInt32?
    /// When its running process started (the machine's record).
    var startedAt: ContinuousClock.Instant? { machine.startedAt }
    /// Whether its running process is ready (the machine's record).
    var ready: Bool { machine.readyAt != nil }

    /// Restarts since the supervisor started (shown in `status`; the machine's count).
    var restarts: Int { machine.restarts }
    /// Backoff and restart budget: pure policy, fed the instants of what happened (the machine's).
    var ledger: RestartLedger { machine.ledger }
    /// How its last process ended, in words, for `status` (the machine's record).
    var lastExit: String { machine.lastExit }
    /// ``lastExit`` as a category, for `status` (the machine's record).
    var exitReason: Supervisor.ExitReason? { machine.exitReason }
    /// The line `status` shows beside the state: the machine's account of the state it entered
    /// (waiting for whom, restarting when, why it stays down, an upgrade's stage), until the
    /// process says one of its own (`STATUS=`).
    var statusText: String { machine.statusText(service: spec.name) }
    /// Why the supervisor killed the running process (ready timeout, watchdog, liveness), if it
    /// did, in words (the machine's record, with its kind).
    var failureText: String? { machine.pendingFailure?.words }
    /// Limits that could not be applied, each noted once in the log.
    var limitNotes: Set<String> = []
    /// The OOM kills of its memory cgroup when the running process started.
    var oomKillsAtStart: Int?
    /// Callbacks waiting for the process to be gone (stop, restart, down).
    var stopWaiters: [() -> Void] = []

    /// Its stdout and stderr pipes, made at its first start and kept across restarts.
    var output: HeldOutput?
    /// The listening socket, bound once and kept across restarts.
    var listeningFD: Int32?
    /// Watches a duplicate of ``listeningFD`` for a waiting caller while the unit is `idle`
    /// (on demand); nil otherwise.
    var demand: FDPoll?
    let log: ServiceLog
    /// Ready timeout, backoff or stop timeout: one at a time, so one timer.
    let timer: LoopTimer
    /// Armed while a watchdog interval is set and the service is ready.
    let watchdog: LoopTimer
    /// Fires once per ready run, `backoff.resetAfter` after readiness, to prove it healthy.
    let forgiveness: LoopTimer
    /// The wait until the next `daemon.health` check, while one is configured and it is ready.
    let livenessTimer: LoopTimer
    /// The Litestream process that copies its store, when the manifest names a `replica`.
    var replica: ReplicaUnit?

    init(spec: ServiceSpec, log: ServiceLog, loop: EventLoop) {
        self.spec = spec
        self.log = log
        machine = ServiceStateMachine(
            restart: spec.restart, backoff: spec.backoff, budget: spec.budget, notifiesReady: spec.readiness == .notify,
            startsOnDemand: spec.startsOnDemand)
        timer = LoopTimer(loop: loop)
        watchdog = LoopTimer(loop: loop)
        forgiveness = LoopTimer(loop: loop)
        livenessTimer = LoopTimer(loop: loop)
        if spec.replica != nil { replica = ReplicaUnit(spec: spec, loop: loop) }
    }

    /// Every timer of the unit, to close together.
    var timers: [LoopTimer] { [timer, watchdog, forgiveness, livenessTimer] }

    /// What `status` shows.
    func status(now: ContinuousClock.Instant) -> Supervisor.ServiceStatus {
        Supervisor.ServiceStatus(
            name: spec.name, state: state, pid: pid.map(Int.init),
            uptimeSeconds: startedAt.map { Self.seconds(now - $0) }, restarts: restarts, lastExit: lastExit,
            ready: ready, statusText: statusText, readySince: readySince(now: now),
            restartsInWindow: ledger.restartsInWindow(at: now),
            // In backoff, `timer` is the backoff's (armed once a strategy's peers are down).
            backoffRemainingSeconds: state == .backoff ? timer.remaining.map(Self.seconds) : nil,
            exitReason: exitReason, rssBytes: pid.flatMap(ProcessState.residentBytes),
            receives: spec.receives.map(\.rawValue), replica: replica?.status(now: now))
    }

    /// When it became ready, by the wall clock: the machine's instant, as long ago as it was, the
    /// way `ps` derives a start time from the boot time. Nil while it is not ready.
    func readySince(now: ContinuousClock.Instant) -> Timestamp? {
        machine.readyAt.map { Timestamp.now.adding(.zero - (now - $0)) }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// "250 ms", "1.5 s".
    static func text(_ duration: Duration) -> String {
        let seconds = seconds(duration)
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        let rounded = (seconds * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}
