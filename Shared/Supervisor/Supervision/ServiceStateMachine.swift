import VerticalsContract

/// The lifecycle of one supervised service as a value: its state, whether it is wanted, and its
/// restart accounting. One `mutating` function per event returns the ``Action``s the engine
/// performs (spawn, signal, arm or cancel a timer, answer waiters); nothing inside does I/O,
/// reads a clock or touches a process, so every state × event pair is a plain unit test
/// (`ServiceStateMachineTests`). After swift-nio's `HTTP2StreamStateMachine`.
///
/// An event that does not fit the state (a datagram, an exit or a timer that arrives late) is
/// answered with no actions and leaves the state as it was: the outside world may send anything
/// at any time, so no event traps.
///
/// ```swift
/// var machine = ServiceStateMachine(restart: .onFailure, backoff: backoff, budget: budget, notifiesReady: true)
/// machine.startRequested(fresh: true)            // [.checkDependencies]
/// machine.dependenciesChecked(missing: [])       // [.spawn], state .starting
/// machine.spawned(at: now)                       // [.armTimer(.readiness)]
/// machine.ready(at: now)                         // [.cancelTimer, .armWatchdog, …], state .ready
/// ```
struct ServiceStateMachine: Sendable, Equatable {
    /// Where an upgrade is, from the machine's side (``UpgradeRun`` keeps its pids and instants).
    enum UpgradeStage: Sendable, Hashable {
        /// The new process prepares while the old one serves alone.
        case preparing
        /// The old process was told to stop accepting, drain and exit.
        case handingOver
        /// As ``handingOver``, but the new process has ended already: once the old one is gone,
        /// the previous executable starts again.
        case newProcessFailed
        /// The old process is gone; the new one is the service's own and not ready yet.
        case finishing
    }

    /// What a restore returns to once the backup is in place.
    enum RestoreResume: Sendable, Hashable {
        /// An operator's restore of a stopped service.
        case stopped
        /// An operator's restore of a failed service.
        case failed
        /// A failed upgrade's rollback, which starts the previous executable next.
        case rollback
    }

    /// The lifecycle states: the wire's eight, plus an upgrade's and a restore's, which are
    /// reported as the wire state they look like from outside (``wire``).
    /// Work off the loop a spawn may wait for before its process runs.
    enum Preparation: Sendable, Hashable {
        /// Its state and runtime folders given to its user (``SupervisorEngine/giveFolders(_:)``).
        case foldersGiven
        /// Its store, not there yet, restored from its replica
        /// (``SupervisorEngine/restoreFirstStore(_:)``).
        case firstStoreRestored
    }

    enum State: Sendable, Hashable, CustomStringConvertible {
        case stopped, failed, idle, waiting, starting, ready, backoff, stopping
        /// An upgrade runs; reported as `ready`, `stopping` or `starting` by stage.
        case upgrading(UpgradeStage)
        /// A backup is being put in place of the store; no process runs.
        case restoring(RestoreResume)

        /// Every state, for exhaustive tests.
        static let all: [State] = [
            .stopped, .failed, .idle, .waiting, .starting, .ready, .backoff, .stopping,
            .upgrading(.preparing), .upgrading(.handingOver), .upgrading(.newProcessFailed), .upgrading(.finishing),
            .restoring(.stopped), .restoring(.failed), .restoring(.rollback),
        ]

        /// The state `status` and followers see: the contract's, unchanged.
        var wire: Supervisor.ServiceState {
            switch self {
            case .stopped: .stopped
            case .failed: .failed
            case .idle: .idle
            case .waiting: .waiting
            case .starting: .starting
            case .ready: .ready
            case .backoff: .backoff
            case .stopping: .stopping
            case .upgrading(.preparing): .ready
            case .upgrading(.handingOver), .upgrading(.newProcessFailed): .stopping
            case .upgrading(.finishing): .starting
            case .restoring(.stopped): .stopped
            case .restoring(.failed): .failed
            case .restoring(.rollback): .waiting
            }
        }

        /// "ready", "upgrading(handingOver)", for test names and logs.
        var description: String {
            switch self {
            case .upgrading(let stage): "upgrading(\(stage))"
            case .restoring(let resume): "restoring(\(resume))"
            default: "\(wire)"
            }
        }
    }

    /// Where the service is, with the facts that hold only there: an upgrade's in its case, so
    /// nothing beside it can disagree with it. ``State`` is the same without them.
    enum Phase: Sendable, Hashable {
        case stopped, idle
        /// It waits for `awaited`: the dependencies and holds not ready at the last check (none
        /// yet when a rollback enters it: the check follows).
        case waiting(awaited: [String])
        /// It stays down; `gaveUp`: why, decided by the exit that led here (nil in a machine
        /// built in this state, for tests).
        case failed(gaveUp: GiveUp?)
        /// Its process is ready, with what is true of that process.
        case ready(Running)
        /// Restarting after `delay`, decided by the exit that led here.
        case backoff(delay: Duration)
        /// A start: the work off the loop its spawn waits for, what it already waited for, and
        /// when its process started once it runs.
        case starting(Start)
        /// A stop; `preparation`: the work off the loop a start's spawn waited for when the stop
        /// came, with no process to signal: that work's end stops it. `process`: what is true of
        /// the process the stop waits for (no start when none runs).
        case stopping(preparation: Preparation?, process: Running)
        /// An upgrade runs: its stage, its processes and what they did so far.
        case upgrading(Upgrade)
        /// A backup is being put in place of the store; no process runs. `gaveUp`: why a failed
        /// service stayed down, which it says again once the restore is done.
        case restoring(RestoreResume, gaveUp: GiveUp?)

        /// The phase without its data: what tables, coverage and ``State/wire`` name.
        var state: State {
            switch self {
            case .stopped: .stopped
            case .failed: .failed
            case .idle: .idle
            case .waiting: .waiting
            case .starting: .starting
            case .ready: .ready
            case .backoff: .backoff
            case .stopping: .stopping
            case .upgrading(let upgrade): .upgrading(upgrade.stage)
            case .restoring(let resume, _): .restoring(resume)
            }
        }

        /// The phase of `state`, an upgrade's with `processes` (a machine built in a state, for tests).
        init(_ state: State, processes: UpgradeProcesses) {
            switch state {
            case .stopped: self = .stopped
            case .failed: self = .failed(gaveUp: nil)
            case .idle: self = .idle
            case .waiting: self = .waiting(awaited: [])
            case .starting: self = .starting(Start())
            case .ready: self = .ready(Running())
            case .backoff: self = .backoff(delay: .zero)
            case .stopping: self = .stopping(preparation: nil, process: Running())
            case .upgrading(let stage): self = .upgrading(Upgrade(stage: stage, processes: processes))
            case .restoring(let resume): self = .restoring(resume, gaveUp: nil)
            }
        }
    }

    /// What a start holds until its process runs (``Phase/starting(_:)``).
    struct Start: Sendable, Hashable {
        /// The work off the loop the spawn waits for (``preparationBegun(_:)``): no process runs
        /// yet, so a stop signals nothing and waits for that work's end.
        var preparation: Preparation?
        /// The work this start's spawn already waited for, and that ended well: its spawn goes on
        /// without it (a replica that held no copy leaves no store, and is not asked again).
        var prepared: Set<Preparation> = []
        /// Its process: when it started (``spawned(at:)``; nil until it runs), and the failure
        /// the supervisor killed it for.
        var process = Running()
    }

    /// What is true of the service's own process while it starts, serves or stops: facts of
    /// that process, gone with the state once it has ended.
    struct Running: Sendable, Hashable {
        /// When it started (`status`'s uptime): nil in a machine built in a state, for tests, and
        /// while a stop waits for work off the loop with no process.
        var startedAt: ContinuousClock.Instant?
        /// The failure the supervisor killed it for (ready timeout, watchdog, liveness), until
        /// its exit, which counts as that failure.
        var failure: Failure?
        /// Liveness checks failed in a row while it is ready.
        var livenessFailures = 0
    }

    /// The one timer a service has for its current state.
    enum Timer: Sendable, Hashable {
        /// The ready timeout of a starting process.
        case readiness
        /// The stop timeout, after which the process group gets SIGKILL.
        case stop
    }

    /// Why a service stays down without a restart.
    enum GiveUp: Sendable, Hashable {
        /// It exited 78: a restart would be refused again.
        case restartCannotHelp
        /// Its restart policy does not restart this exit.
        case policy
        /// `count` restarts already within the budget's window.
        case budgetSpent(count: Int)
    }

    /// What the engine does for a transition, in order.
    enum Action: Sendable, Hashable {
        /// Find which dependencies are not ready yet and answer with ``dependenciesChecked(missing:)``.
        case checkDependencies
        /// Write in the service's log that its process became ready, and how long that took.
        case noteReady
        /// Write in the service's log that its process exited cleanly and it waits for a caller.
        case noteIdle
        /// Say which dependencies it waits for.
        case wait(for: [String])
        /// Start a process; answer with ``spawned(at:)`` or ``spawnFailed(at:reason:)``.
        case spawn
        /// Arm the service's timer; its expiry comes back as the matching event.
        case armTimer(Timer)
        /// Stop the service's timer.
        case cancelTimer
        /// Send the stop signal to the process group.
        case sendStopSignal
        /// SIGKILL the process group (the stop timeout passed).
        case kill
        /// SIGKILL the process group for a failure the supervisor saw; its exit counts as that failure.
        case killForFailure(Supervisor.ExitReason)
        /// Arm (again) the watchdog, while one is configured.
        case armWatchdog
        /// Arm the check that forgives the backoff of a healthy run.
        case armForgiveness
        /// Say that a healthy run forgave the backoff.
        case backoffForgiven
        /// Arm the next liveness check, while one is configured.
        case armLiveness
        /// Stop the watchdog and liveness checks.
        case stopHealthChecks
        /// Stop the forgiveness check.
        case cancelForgiveness
        /// Services that waited for this one may start now.
        case startDependents
        /// Watch the listening socket for a caller.
        case watchForDemand
        /// Stop watching the listening socket.
        case stopWatchingForDemand
        /// Call everyone waiting for the process to be gone.
        case notifyStopWaiters
        /// Say the exit and the restart to come, take the strategy's peers down with it, then arm
        /// the backoff timer (the machine has counted the restart).
        case restart(after: Duration)
        /// Say it stays down, and why (in the service's log unless its policy chose so).
        case giveUp(GiveUp)
        /// The new process is ready to take over: its own deadline stops (the old process's stop
        /// timeout bounds the hand-over; the new one's ready timeout starts again once promoted).
        case cancelUpgradeReadyTimeout
        /// Send the upgrade's old process, still the service's own, its stop signal: it stops
        /// accepting, drains and exits, which hands the store over to the new one.
        case sendHandOverSignal
        /// The old process is gone: make the upgrade's new process the service's own, then say
        /// `starting` with its pid (the state is said by this action, not before it).
        case promoteUpgrade
        /// The upgrade's new process has its ready timeout: to wait for the store or say
        /// `READY=1` while preparing, to say `READY=1` once promoted.
        case armUpgradeReadyTimeout
        /// The promoted new process is ready: take its executable, and say it is ready
        /// (``ready(at:)``, which answers the upgrade).
        case completeUpgrade
        /// SIGKILL the upgrade's new process (its readiness deadline passed); its exit fails the
        /// upgrade, in the words of `reason` (``Upgrade/kill``).
        case killNewProcess(reason: UpgradeKill)
        /// The new process failed after the hand-over: say so, take the previous executable back,
        /// and put `backup` back when the new build made one (``Upgrade/backup``): the machine is
        /// `restoring` then, until ``restoreEnded(saying:)``. The previous executable's start is
        /// the machine's: ``checkDependencies`` after this action, or after the restore's end.
        case rollBackUpgrade(backup: String?)
        /// A stop abandons the upgrade: say so, and SIGKILL its new process when `killsNewProcess`
        /// (it is not the service's own yet; once it is, the stop takes it). Its caller is answered
        /// later, by ``answerUpgrade(_:)``.
        case abandonUpgrade(killsNewProcess: Bool)
        /// Answer the upgrade's caller, and let go of its new process's handle: the machine says
        /// so once per upgrade, when it is done, has failed before the hand-over, or was abandoned
        /// and is settled.
        case answerUpgrade(UpgradeOutcome)
        /// The old process ended before it was told to go: say that the new one takes over now.
        case noteOldProcessLeftFirst
        /// Say, in the service's log and the supervisor's, why no process could start.
        case noteStartFailure(String)
        /// Say the state, with its status text, to `status`'s followers (``handle(_:)`` decides when).
        case announceState
        /// The service entered `entered`: its replica's Litestream follows
        /// (``ReplicaStateMachine/verticalEntered(_:)``), before anything else the event does.
        case tellReplica(entered: State)
    }

    /// An operator's request that the state may refuse.
    enum Request: Sendable, Hashable, CaseIterable {
        case start, restart, upgrade, restore
    }

    /// Why a request is refused (the engine answers `conflict`).
    enum Refusal: Sendable, Hashable {
        /// A backup is being put in place of the store.
        case restoring
        /// An upgrade runs already.
        case upgrading
        /// Only a ready service is upgraded.
        case notReady
        /// Only a stopped or failed service's store is restored.
        case notStopped
    }

    /// How an exited process ended, as the engine read it.
    struct Exit: Sendable, Hashable {
        /// It exited with status 0.
        var success: Bool
        /// A resource limit ended it (its memory cgroup's OOM killer, its CPU time).
        var limit = false
        /// It exited 78 (``DaemonExitStatus/restartCannotHelp``).
        var restartCannotHelp = false
        /// The process had become ready.
        var wasReady = false
        /// The supervisor holds the service's listening socket (it can watch it for callers).
        var socketHeld = false
        /// How it ended, in its own words ("exited with status 1: svc-held: cannot start: the
        /// store is locked"): `status`'s last exit, unless the supervisor killed it for a failure
        /// (``words(of:)``); nil when no process ran (a stop during the wait before a spawn).
        var words: String?
    }

    /// A failure the supervisor saw and killed the running process for (ready timeout,
    /// watchdog, liveness): its kind, which its exit counts as, and its words, which its exit says.
    struct Failure: Sendable, Hashable {
        var kind: Supervisor.ExitReason
        /// "not ready within 5 s", "liveness: no answer to daemon.health within 300 ms".
        var words: String
    }

    /// Where the service is, with the facts its case carries. Entering a state says its status
    /// text (`enteredState(from:)`) from the facts its case carries (the backoff's delay, why it
    /// gave up, what it waits for, an upgrade's stage and processes).
    private(set) var phase: Phase = .stopped {
        didSet { if phase.state != oldValue.state { enteredState(from: oldValue) } }
    }
    /// Where the service is: its ``phase`` without the facts its case carries.
    var state: State { phase.state }
    /// What `status` says beside the state: decided here, by entering a state and by what the
    /// processes say (``statusSaid(_:)``), never by the engine; its words are ``statusText(service:)``.
    private(set) var status = Status.none
    /// Whether it should run: set by a start, cleared by a stop, a shutdown and giving up.
    private(set) var wanted = false
    /// The supervisor shuts down: nothing starts it again, whatever was asked before.
    private(set) var shuttingDown = false
    /// An operator's restart waits for its stop to be done; a stop asked after it cancels it.
    private(set) var restartPending = false
    /// Backoff and restart budget, fed the instants events bring.
    private(set) var ledger: RestartLedger
    /// How the last upgrade ended, recorded as it leaves `.upgrading` (what is true while it runs
    /// is its case's, ``Upgrade``): nil until one has failed or been abandoned, and from the
    /// next one's start.
    private(set) var lastUpgrade: UpgradeEnd?
    /// Liveness checks failed in a row in the current ready run (its case's record).
    var livenessFailures: Int {
        if case .ready(let running) = phase { return running.livenessFailures }
        return 0
    }
    /// The failure the supervisor killed the running process for, until it exits (its case's record).
    var pendingFailure: Failure? { running?.failure }
    /// What is true of the service's own process, in the cases that have one of their own to
    /// record (an upgrade's processes are its case's).
    private var running: Running? {
        switch phase {
        case .starting(let start): start.process
        case .ready(let running), .stopping(_, let running): running
        default: nil
        }
    }
    /// Why its last process ended (`status`'s exit reason): nil until one has.
    private(set) var exitReason: Supervisor.ExitReason?
    /// ``exitReason`` in words, as the event that ended it said them (`status`'s last exit, and
    /// the log's): empty until one has ended.
    private(set) var lastExit = ""
    /// When the service's own running process started (`status`'s uptime): nil while none runs.
    /// The case's record (its spawn's, or an upgrade's process that is the service's own), so it
    /// goes with the state that had a process.
    var startedAt: ContinuousClock.Instant? {
        switch phase {
        case .starting(let start): start.process.startedAt
        case .ready(let running), .stopping(_, let running): running.startedAt
        case .upgrading(let upgrade): upgrade.ownStartedAt
        case .stopped, .failed, .idle, .waiting, .backoff, .restoring: nil
        }
    }
    /// Restarts since the supervisor started: after a failure, and with a strategy's peer.
    private(set) var restarts = 0
    /// Services that must be ready before it starts again, beside its dependencies: the members
    /// before it in a `one_for_all` group that is restarting. Cleared once it is ready, and by a
    /// fresh start.
    private(set) var holds: Set<String> = []
    /// What it waits for: the case's record while `waiting` (``Phase/waiting(awaited:)``), none outside it.
    var awaited: [String] {
        if case .waiting(let awaited) = phase { return awaited }
        return []
    }
    /// The backoff before its next start, decided by the exit that put it in `backoff`: nil
    /// outside it (the case's record).
    var backoffDelay: Duration? {
        if case .backoff(let delay) = phase { return delay }
        return nil
    }
    /// Why it stays down, decided by the exit that put it in `failed`: nil outside it (the
    /// case's record, kept through a restore of the failed service).
    var gaveUp: GiveUp? {
        switch phase {
        case .failed(let why), .restoring(_, let why): why
        default: nil
        }
    }
    /// The manifest's `restart`.
    private(set) var restart: RestartPolicy
    /// `readiness = notify`: the process says `READY=1`; else it is ready once spawned.
    private(set) var notifiesReady: Bool
    /// `start = "on-demand"`: a clean exit waits for the next caller instead of a restart.
    private(set) var startsOnDemand: Bool
    /// The work off the loop the spawn waits for: its case's (``Start/preparation``, or a stop's
    /// that came meanwhile), so it is there only while `starting` or `stopping`.
    var preparation: Preparation? {
        switch phase {
        case .starting(let start): start.preparation
        case .stopping(let preparation, _): preparation
        default: nil
        }
    }
    /// The work this start's spawn already waited for (``Start/prepared``): none outside a start.
    var prepared: Set<Preparation> {
        if case .starting(let start) = phase { return start.prepared }
        return []
    }
    /// Whether the spawn waits for work off the loop (``preparation``).
    var preparing: Bool { preparation != nil }

    /// When the running process became ready: nil before it is, and once it has ended. The one
    /// record of readiness: the dependency check, `status` and the exit's explanation read it here.
    var readyAt: ContinuousClock.Instant? { ledger.readyAt }

    /// A stopped, unwanted service.
    init(
        restart: RestartPolicy, backoff: Backoff, budget: RestartBudget, notifiesReady: Bool,
        startsOnDemand: Bool = false
    ) {
        self.restart = restart
        self.notifiesReady = notifiesReady
        self.startsOnDemand = startsOnDemand
        ledger = RestartLedger(backoff: backoff, budget: budget)
    }

    /// A machine already in `state`, for tests; an upgrade's with `processes`.
    init(
        state: State, wanted: Bool, restart: RestartPolicy, backoff: Backoff, budget: RestartBudget,
        notifiesReady: Bool,
        startsOnDemand: Bool = false,
        processes: UpgradeProcesses = UpgradeProcesses(oldPID: 1, newPID: 2, previousExecutable: "previous")
    ) {
        self.init(
            restart: restart, backoff: backoff, budget: budget, notifiesReady: notifiesReady,
            startsOnDemand: startsOnDemand)
        self.phase = Phase(state, processes: processes)
        self.wanted = wanted
    }

    /// Whether a backup is being put in place of the store.
    var isRestoring: Bool {
        if case .restoring = state { return true }
        return false
    }

    /// Whether an upgrade runs.
    var isUpgrading: Bool { upgrade != nil }

    /// The upgrade under way: nil unless one runs (its facts are its case's, so none outlives it).
    var upgrade: Upgrade? {
        if case .upgrading(let upgrade) = phase { return upgrade }
        return nil
    }

    /// Whether the state refuses `request`, and why; nil when it may go ahead.
    func refusal(of request: Request) -> Refusal? {
        switch request {
        case .start, .restart:
            return isRestoring ? .restoring : nil
        case .upgrade:
            if isRestoring { return .restoring }
            if isUpgrading { return .upgrading }
            // A process being killed for a failure (watchdog, liveness) is not ready any more.
            return state == .ready && pendingFailure == nil ? nil : .notReady
        case .restore:
            guard state.wire == .stopped || state.wire == .failed else { return .notStopped }
            return isRestoring ? .restoring : nil
        }
    }

    /// The manifest changed the service's policy (a reload): it applies from the next event on;
    /// the restarts already counted stay counted.
    mutating func configure(
        restart: RestartPolicy, backoff: Backoff, budget: RestartBudget, notifiesReady: Bool, startsOnDemand: Bool
    ) {
        self.restart = restart
        self.notifiesReady = notifiesReady
        self.startsOnDemand = startsOnDemand
        ledger.backoff = backoff
        ledger.budget = budget
    }

    // MARK: Starting

    /// The operator (or the manifest at start) wants it running; `fresh` gives it a new budget.
    mutating func startRequested(fresh: Bool) -> [Action] {
        if isRestoring || shuttingDown { return [] }
        wanted = true
        if fresh {
            ledger.reset()
            holds = []
        }
        switch state {
        case .stopped, .failed, .idle: return [.checkDependencies]
        default: return []
        }
    }

    /// The manifest starts it on demand: idle with its socket watched, wanted, a fresh budget.
    mutating func activatedOnDemand() -> [Action] {
        if isRestoring || shuttingDown { return [] }
        wanted = true
        ledger.reset()
        holds = []
        switch state {
        case .stopped, .failed:
            phase = .idle
            return [.watchForDemand]
        default:
            return []
        }
    }

    /// Its socket could not be watched for callers while idle: start it at once instead.
    mutating func watchFailed() -> [Action] {
        guard state == .idle, wanted else { return [] }
        return [.checkDependencies]
    }

    /// The engine's answer to ``Action/checkDependencies``: the dependencies not ready yet.
    mutating func dependenciesChecked(missing: [String]) -> [Action] {
        guard wanted else { return [] }
        switch state {
        case .stopped, .failed, .waiting, .backoff, .idle:
            let leavesIdle: [Action] = state == .idle ? [.stopWatchingForDemand] : []
            guard missing.isEmpty else {
                // A service that keeps waiting says again what for, as the list changes.
                if case .waiting(let before) = phase, before != missing { status = .waiting(for: missing) }
                phase = .waiting(awaited: missing)
                return leavesIdle + [.wait(for: missing)]
            }
            phase = .starting(Start())
            return leavesIdle + [.spawn]
        default:
            return []
        }
    }

    /// A service it waits for became ready.
    mutating func dependencyReady() -> [Action] {
        state == .waiting && wanted ? [.checkDependencies] : []
    }

    /// The backoff timer fired.
    mutating func backoffElapsed() -> [Action] {
        state == .backoff && wanted ? [.checkDependencies] : []
    }

    /// A caller waits in the socket's backlog of an idle service.
    mutating func demand() -> [Action] {
        state == .idle && wanted ? [.stopWatchingForDemand, .checkDependencies] : []
    }

    /// The spawn asked for by ``Action/spawn`` waits for `work` off the loop first: no process
    /// runs until ``preparationEnded(failure:at:)``, and a stop meanwhile waits for that. Work
    /// this start already waited for (``prepared``) is not begun again.
    mutating func preparationBegun(_ work: Preparation) -> [Action] {
        guard case .starting(var start) = phase, start.preparation == nil, !start.prepared.contains(work) else {
            return []
        }
        start.preparation = work
        phase = .starting(start)
        return []
    }

    /// The work the spawn waited for ended at `now`, or failed, saying `failure` ("cannot start:
    /// …"): the spawn goes on, or fails as a start that could not spawn; a stop asked meanwhile
    /// ends as a process that ran and stopped would.
    mutating func preparationEnded(failure: String?, at now: ContinuousClock.Instant) -> [Action] {
        switch phase {
        case .starting(var start):
            guard let work = start.preparation else { return [] }
            start.preparation = nil
            if failure == nil { start.prepared.insert(work) }
            phase = .starting(start)
            guard let failure else { return [.spawn] }
            return [.noteStartFailure(failure)] + spawnFailed(at: now, reason: failure)
        case .stopping(preparation: .some, process: _):
            phase = .stopping(preparation: nil, process: Running())
            return exited(Exit(success: true), at: now)
        default:
            return []
        }
    }

    /// The process asked for by ``Action/spawn`` runs, started at `now`.
    mutating func spawned(at now: ContinuousClock.Instant) -> [Action] {
        guard case .starting(var start) = phase else { return [] }
        start.process.startedAt = now
        phase = .starting(start)
        ledger.spawned()
        return notifiesReady ? [.armTimer(.readiness)] : []
    }

    /// The process asked for by ``Action/spawn`` could not be started, for `reason` ("cannot
    /// start: …"): a failed exit.
    mutating func spawnFailed(at now: ContinuousClock.Instant, reason: String) -> [Action] {
        guard state == .starting else { return [] }
        exitReason = .startFailed
        lastExit = reason
        return afterUnexpectedExit(failure: true, restartCannotHelp: false, at: now)
    }

    /// `READY=1` (or, without readiness, the spawn itself), or an upgrade's new process, now the
    /// service's own, became ready.
    mutating func ready(at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .starting, .upgrading(.finishing):
            // A promoted new process ready is the upgrade done: its caller is answered last.
            let upgraded = upgrade.map { [Action.answerUpgrade(.upgraded($0))] } ?? []
            // A kill for a failure (its ready timeout) that came before READY=1 still counts.
            phase = .ready(Running(startedAt: startedAt, failure: pendingFailure))
            ledger.becameReady(at: now)
            holds = []
            return [.noteReady, .cancelTimer, .armWatchdog, .armForgiveness, .armLiveness, .startDependents] + upgraded
        default:
            return []
        }
    }

    // MARK: Running

    /// `WATCHDOG=1`.
    mutating func watchdogPinged() -> [Action] {
        state == .ready ? [.armWatchdog] : []
    }

    /// No `WATCHDOG=1` within the `interval`.
    mutating func watchdogMissed(interval: Duration) -> [Action] {
        guard state == .ready else { return [] }
        return killForFailure(
            Failure(kind: .watchdog, words: "watchdog: no WATCHDOG=1 within \(ServiceUnit.text(interval))"))
    }

    /// Remembers `failure` with the process it kills, for the exit that follows the kill.
    private mutating func killForFailure(_ failure: Failure) -> [Action] {
        switch phase {
        case .starting(var start):
            start.process.failure = failure
            phase = .starting(start)
        case .ready(var running):
            running.failure = failure
            phase = .ready(running)
        default:
            return []
        }
        return [.killForFailure(failure.kind)]
    }

    /// A `daemon.health` check of the ready process ended: passed (`failure` nil), or failed,
    /// saying `failure` ("liveness: no answer to daemon.health within 300 ms; last status:
    /// serving"); `allowed` failures in a row kill it, for the last one's words.
    mutating func livenessChecked(failure: String?, allowed: Int) -> [Action] {
        guard case .ready(var running) = phase else { return [] }
        running.livenessFailures = failure == nil ? 0 : running.livenessFailures + 1
        phase = .ready(running)
        guard let failure, running.livenessFailures >= allowed else { return [.armLiveness] }
        return killForFailure(Failure(kind: .liveness, words: failure))
    }

    /// The forgiveness check found the process running at `instant` (read before the check):
    /// the backoff is forgiven once it has been ready for `backoff.resetAfter`, else checked again.
    mutating func aliveSeen(at instant: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .ready, .upgrading(.preparing):
            return ledger.sawAlive(at: instant) ? [.backoffForgiven] : [.armForgiveness]
        default:
            return []
        }
    }

    /// No `READY=1` within the ready `timeout`.
    mutating func readyTimeoutElapsed(after timeout: Duration) -> [Action] {
        guard state == .starting else { return [] }
        return killForFailure(Failure(kind: .readyTimeout, words: "not ready within \(ServiceUnit.text(timeout))"))
    }

    /// `STOPPING=1`: the process leaves on its own; its exit is judged by the restart policy.
    mutating func stoppingOnItsOwn() -> [Action] {
        if state.wire == .starting || state.wire == .ready { status = .stoppingOnItsOwn }
        return state == .starting || state == .ready ? [.stopHealthChecks] : []
    }

    // MARK: A strategy's peers

    /// The supervisor stopped it to restart it with a failed peer (`one_for_all`,
    /// `rest_for_one`), for `reason` ("stopped to restart with root (rest_for_one)"): that is
    /// why it ended, whatever its process said, or if it had none.
    mutating func stoppedWithPeer(reason: String) -> [Action] {
        exitReason = .stop
        lastExit = reason
        return []
    }

    /// It comes back after `peers` (the members before it in its `one_for_all` group) are ready
    /// again, beside its dependencies.
    mutating func heldUntilReady(_ peers: some Sequence<String>) -> [Action] {
        holds.formUnion(peers)
        return []
    }

    /// It comes back with the peer whose failure took it down: a restart of its own, on the
    /// budget it had.
    mutating func restartRequestedWithPeer() -> [Action] {
        restarts += 1
        return startRequested(fresh: false)
    }

    // MARK: Stopping

    /// A stop (operator, restart, strategy peer): stop signal, then SIGKILL after the stop timeout.
    mutating func stopRequested() -> [Action] {
        wanted = false
        restartPending = false
        switch state {
        case .starting where preparing:
            // No process to signal: the work's end stops it (``preparationEnded(failure:at:)``).
            phase = .stopping(preparation: preparation, process: Running())
            return []
        case .starting, .ready:
            phase = .stopping(preparation: nil, process: running ?? Running())
            return [.stopHealthChecks, .sendStopSignal, .armTimer(.stop)]
        case .upgrading(let stage):
            // Answered once settled: which side of the hand-over it was on is known now.
            lastUpgrade = .abandoned(afterHandOver: upgrade?.handOverAt != nil, answered: false)
            // Not the service's own yet: killed. Once promoted, the stop signal takes it.
            let abandon = Action.abandonUpgrade(killsNewProcess: stage != .finishing)
            phase = .stopping(preparation: nil, process: Running(startedAt: startedAt))
            switch stage {
            case .preparing, .finishing:
                return [abandon, .stopHealthChecks, .sendStopSignal, .armTimer(.stop)]
            case .handingOver, .newProcessFailed:
                // The old process was signalled and its stop timer runs already.
                return [abandon]
            }
        case .stopping:
            return []
        case .idle:
            phase = .stopped
            return [.stopWatchingForDemand, .notifyStopWaiters]
        case .waiting, .backoff:
            phase = .stopped
            return [.cancelTimer, .notifyStopWaiters]
        case .stopped, .failed, .restoring(.stopped), .restoring(.failed):
            return [.notifyStopWaiters]
        case .restoring(.rollback):
            phase = .restoring(.stopped, gaveUp: nil)
            return [.notifyStopWaiters]
        }
    }

    /// The supervisor stops every service: none is wanted any more, and none starts again (a
    /// restart or a start that races the shutdown included).
    mutating func shutdownBegun() -> [Action] {
        wanted = false
        shuttingDown = true
        restartPending = false
        return []
    }

    /// An operator's restart: a stop, then a fresh start once the process is gone
    /// (``restartDue()``), unless a stop or a shutdown is asked meanwhile.
    mutating func restartRequested() -> [Action] {
        let actions = stopRequested()
        restartPending = !shuttingDown
        return actions
    }

    /// The stop of an operator's restart is done: it starts again, unless something asked since
    /// said otherwise.
    mutating func restartDue() -> [Action] {
        guard restartPending else { return [] }
        restartPending = false
        return startRequested(fresh: true)
    }

    /// The stop timeout passed and the process is still there.
    mutating func stopTimeoutElapsed() -> [Action] {
        switch state {
        case .stopping, .upgrading(.handingOver), .upgrading(.newProcessFailed): [.kill]
        default: []
        }
    }

    /// The service's own process ended (after the engine's bookkeeping of the exit): why it
    /// ended is recorded first (a failure the supervisor killed it for, a limit, a stop asked
    /// for, a clean exit or a crash), then it stops, goes idle, restarts or stays down.
    mutating func exited(_ exit: Exit, at now: ContinuousClock.Instant) -> [Action] {
        ledger.processEnded() // whatever the state: no process of its is ready now, or runs
        switch state {
        case .stopped, .failed, .idle, .waiting, .backoff, .restoring: return [] // no process to end
        case .starting, .ready, .stopping, .upgrading: break
        }
        let asked = state.wire == .stopping || !wanted
        let failure = pendingFailure != nil || !exit.success
        // Its idle exit (or another clean exit of an on-demand service) is not a failure: no
        // backoff, no restart budget spent; the next caller starts it again. Not for a process
        // that never became ready: one that exits 0 at once would be started again at once.
        let waitsForDemand = startsOnDemand && !failure && exit.socketHeld && exit.wasReady
        exitReason = pendingFailure?.kind ?? (exit.limit ? .limit : asked ? .stop : exit.success ? .exit : .crash)
        lastExit = words(of: exit) // the failure it was killed for goes with the state it leaves
        return afterExit(exit, failure: failure, waitsForDemand: waitsForDemand, at: now)
    }

    /// The words `exit` of the service's own process leaves as its last exit: those of the
    /// failure the supervisor killed it for, else its own (a signal says less than "watchdog: no
    /// WATCHDOG=1 within 1 s"), else, when no process ran, the last exit's.
    func words(of exit: Exit) -> String {
        pendingFailure?.words ?? exit.words ?? lastExit
    }

    /// What follows an exit in a state that has a process.
    private mutating func afterExit(
        _ exit: Exit, failure: Bool, waitsForDemand: Bool, at now: ContinuousClock.Instant
    ) -> [Action] {
        switch state {
        case .stopping:
            phase = .stopped
            // An abandoned upgrade not answered yet is settled by the end of the process the
            // stop waited for: answered first, as the stop's own waiters are.
            let abandoned = answerAbandonedUpgrade()
            // Started again first (a start asked meanwhile), then the waiters: a restart among
            // them then finds it starting already, not a second check that skips its backoff.
            return abandoned + (wanted ? [.checkDependencies] : []) + [.notifyStopWaiters]
        case .starting, .ready:
            guard wanted else {
                phase = .stopped
                return [.notifyStopWaiters]
            }
            if waitsForDemand {
                phase = .idle
                return [.noteIdle, .watchForDemand]
            }
            return afterUnexpectedExit(failure: failure, restartCannotHelp: exit.restartCannotHelp, at: now)
        case .upgrading(.preparing), .upgrading(.handingOver):
            guard var upgrade else { return [] }
            // The old process gone before it was told to go hands over as it leaves.
            let early: [Action] = upgrade.stage == .preparing ? [.noteOldProcessLeftFirst] : []
            if upgrade.handOverAt == nil { upgrade.handOverAt = now }
            upgrade.oldExitedAt = now
            upgrade.stage = .finishing
            phase = .upgrading(upgrade) // its new process is the service's own: its start counts
            ledger.spawned()
            return early + [.promoteUpgrade, upgrade.readyAt != nil ? .completeUpgrade : .armUpgradeReadyTimeout]
        case .upgrading(.newProcessFailed), .upgrading(.finishing):
            guard let upgrade else { return [] }
            // The old process is gone after the new one failed, or the promoted new one ended: in
            // the words of its kill, if it was killed for its deadline, else in its own.
            let promotedEnd = upgrade.kill?.words ?? lastExit
            let reason = upgrade.stage == .finishing ? promotedEnd : upgrade.failure ?? "failed"
            lastUpgrade = .rollingBack(reason: reason, restored: nil, answered: false)
            wanted = true
            // The previous executable starts as any start does: at once, or once its backup is
            // back in place (``restoreEnded(saying:)``); what it waits for is checked then.
            guard let backup = upgrade.backup else {
                phase = .waiting(awaited: [])
                return [.rollBackUpgrade(backup: nil), .checkDependencies]
            }
            phase = .restoring(.rollback, gaveUp: nil)
            return [.rollBackUpgrade(backup: backup)]
        case .stopped, .failed, .idle, .waiting, .backoff, .restoring:
            return []
        }
    }

    /// Restarts per policy and budget, or gives up.
    private mutating func afterUnexpectedExit(
        failure: Bool, restartCannotHelp: Bool, at now: ContinuousClock.Instant
    ) -> [Action] {
        if restartCannotHelp { return giveUp(.restartCannotHelp) }
        let restartsByPolicy =
            switch restart {
            case .always: true
            case .onFailure: failure
            case .never: false
            }
        guard restartsByPolicy else {
            guard failure else {
                wanted = false
                phase = .stopped
                return []
            }
            return giveUp(.policy)
        }
        switch ledger.afterExit(at: now) {
        case .giveUp(let count):
            return giveUp(.budgetSpent(count: count))
        case .restart(let delay):
            phase = .backoff(delay: delay)
            restarts += 1
            return [.restart(after: delay)]
        }
    }

    /// It stays down, failed, until an operator starts it.
    private mutating func giveUp(_ why: GiveUp) -> [Action] {
        wanted = false
        phase = .failed(gaveUp: why)
        return [.giveUp(why)]
    }

    // MARK: Restore

    /// An operator's backup is about to be put in place of the store of a stopped or failed
    /// service (a rollback's restore begins with the exit that rolls back).
    mutating func restoreBegun() -> [Action] {
        switch state {
        case .stopped: phase = .restoring(.stopped, gaveUp: nil)
        case .failed: phase = .restoring(.failed, gaveUp: gaveUp)
        default: return []
        }
        return []
    }

    /// The restore is done, or failed, saying `words` ("the store backup … was put back"): the
    /// service is where it was before. A rollback's answer says its restore's words, and its
    /// previous executable starts now, whether its backup was put back or not.
    mutating func restoreEnded(saying words: String?) -> [Action] {
        if isRestoring, case .rollingBack(let reason, nil, answered: false) = lastUpgrade {
            lastUpgrade = .rollingBack(reason: reason, restored: words, answered: false)
        }
        switch state {
        case .restoring(.stopped): phase = .stopped
        case .restoring(.failed): phase = .failed(gaveUp: gaveUp)
        case .restoring(.rollback):
            phase = .waiting(awaited: [])
            return wanted ? [.checkDependencies] : []
        default: return []
        }
        return []
    }

    // MARK: Upgrade

    /// A new process of a ready service was started beside the old one at `now`: with a
    /// readiness protocol it has the ready timeout to wait for the store or say `READY=1`.
    mutating func upgradeBegun(_ processes: UpgradeProcesses, at now: ContinuousClock.Instant) -> [Action] {
        guard state == .ready else { return [] }
        lastUpgrade = nil
        phase = .upgrading(
            Upgrade(processes: processes, statusBefore: status, startedAt: now, oldStartedAt: startedAt))
        return notifiesReady ? [.armUpgradeReadyTimeout] : []
    }

    /// The new process backed the store up to `path` before migrating it
    /// (`X_VERTICALS_STORE_BACKUP=`): a rollback puts that copy back.
    mutating func upgradeProcessBackedUp(to path: String) -> [Action] {
        guard var upgrade else { return [] }
        upgrade.backup = path
        phase = .upgrading(upgrade)
        return []
    }

    /// The new process prepared and waits for the store's lock (`X_VERTICALS_STORE_WAIT=1`).
    mutating func upgradeProcessWaitsForStore(at now: ContinuousClock.Instant) -> [Action] {
        guard let upgrade, upgrade.stage == .preparing, upgrade.kill == nil else { return [] }
        return handOver(upgrade, at: now)
    }

    /// The new process said `READY=1` at `now` (or, without a readiness protocol, was started):
    /// with no store to wait for it serves already, so the hand-over begins; once it is the
    /// service's own, the upgrade is done; meanwhile it is noted for the old process's exit.
    /// Only its first `READY=1` counts, and none after its deadline killed it.
    mutating func upgradeProcessReady(at now: ContinuousClock.Instant) -> [Action] {
        guard var upgrade, upgrade.readyAt == nil, upgrade.kill == nil else { return [] }
        upgrade.readyAt = now
        switch upgrade.stage {
        case .preparing:
            return handOver(upgrade, at: now)
        case .handingOver:
            phase = .upgrading(upgrade)
            return []
        case .finishing:
            phase = .upgrading(upgrade)
            return [.completeUpgrade]
        case .newProcessFailed:
            return [] // it has ended already
        }
    }

    /// The new process's ready `timeout` passed: to wait for the store or be ready while
    /// preparing, to be ready once it is the service's own. It is killed, and its end fails the
    /// upgrade in the kill's words (``Upgrade/kill``).
    mutating func upgradeReadyTimeoutElapsed(after timeout: Duration) -> [Action] {
        guard var upgrade, upgrade.stage == .preparing || upgrade.stage == .finishing, upgrade.kill == nil else {
            return []
        }
        let kill = UpgradeKill.deadline(afterHandOver: upgrade.stage == .finishing, timeout: timeout)
        upgrade.kill = kill
        phase = .upgrading(upgrade)
        return [.killNewProcess(reason: kill)]
    }

    /// The old process of `upgrade` stops accepting and drains from `now`: its stop signal, its
    /// stop timeout.
    private mutating func handOver(_ upgrade: Upgrade, at now: ContinuousClock.Instant) -> [Action] {
        var upgrade = upgrade
        upgrade.stage = .handingOver
        upgrade.handOverAt = now
        phase = .upgrading(upgrade)
        return [
            .cancelUpgradeReadyTimeout, .stopHealthChecks, .cancelForgiveness, .sendHandOverSignal, .armTimer(.stop),
        ]
    }

    /// Why the upgrade's new process, not the service's own, ended, when its exit says `words`
    /// ("killed by signal 11 (SIGSEGV)"): the words of the kill, when the supervisor killed it
    /// (its deadline, or a stop that abandoned the upgrade), else its own.
    func newProcessEndWords(_ words: String) -> String {
        if let kill = upgrade?.kill { return kill.words }
        if case .abandoned = lastUpgrade { return UpgradeKill.abandoned.words }
        return words
    }

    /// The new process ended before it was the service's own, its exit saying `words`, which
    /// (or its kill's, ``newProcessEndWords(_:)``) say why: before the hand-over the old one
    /// serves on and the upgrade is answered; during it, the previous executable starts once the
    /// old one is gone. An upgrade a stop abandoned before its hand-over is settled by it:
    /// answered now.
    mutating func upgradeProcessFailed(words: String) -> [Action] {
        let reason = newProcessEndWords(words)
        switch phase {
        case .upgrading(let upgrade) where upgrade.stage == .preparing:
            lastUpgrade = .failed(reason: reason)
            phase = .ready(Running(startedAt: upgrade.oldStartedAt))
            return [.answerUpgrade(.failedBeforeHandOver(reason: reason))]
        case .upgrading(var upgrade) where upgrade.stage == .handingOver:
            upgrade.failure = reason
            upgrade.stage = .newProcessFailed
            phase = .upgrading(upgrade)
            return []
        case .stopping where lastUpgrade == .abandoned(afterHandOver: false, answered: false):
            return answerAbandonedUpgrade()
        default:
            // After the hand-over, the old process's end answers an abandoned upgrade.
            return []
        }
    }

    /// The answer of a rolled-back upgrade, once the state the previous executable's start
    /// reached says how it went: it serves (`ready`), or failed too (`failed`, `stopped`, in
    /// `backoff`, which a stop during its restore reaches once that ends); none twice.
    /// ``handle(_:)`` asks after every event, last.
    mutating func answerRollback() -> [Action] {
        guard case .rollingBack(let reason, let restored, answered: false) = lastUpgrade, !isRestoring else {
            return []
        }
        switch state.wire {
        case .ready, .failed, .stopped, .backoff:
            lastUpgrade = .rollingBack(reason: reason, restored: restored, answered: true)
            return [.answerUpgrade(.rolledBack(reason: reason, restored: restored, serves: state == .ready))]
        default:
            return []
        }
    }

    /// The answer of an upgrade a stop abandoned, if it has none yet; none twice.
    private mutating func answerAbandonedUpgrade() -> [Action] {
        guard case .abandoned(let afterHandOver, answered: false) = lastUpgrade else { return [] }
        lastUpgrade = .abandoned(afterHandOver: afterHandOver, answered: true)
        return [.answerUpgrade(.abandoned(afterHandOver: afterHandOver))]
    }

    // MARK: Status

    /// The service's own process said `STATUS=`: shown while it starts, serves or stops, except
    /// while an upgrade runs (its stage says more then).
    mutating func statusSaid(_ words: String) -> [Action] {
        switch state {
        case .starting, .ready, .stopping: status = .said(words)
        default: break
        }
        return []
    }

    /// An upgrade's new process said `STATUS=`.
    mutating func upgradeProcessSaid(_ words: String) -> [Action] {
        guard let upgrade else { return [] }
        status = .upgradeProcessSays(newPID: upgrade.processes.newPID, words)
        return []
    }

    /// What entering the current state from `before` says. Left as it was: a ready service's
    /// (its process's words), a restore's, and a stop during an upgrade's hand-over (its stage).
    private mutating func enteredState(from before: Phase) {
        switch phase {
        case .stopped, .starting:
            status = .none
        case .idle:
            status = .idle
        case .waiting(let awaited):
            switch before {
            case .upgrading: status = .rollingBack
            case .restoring: break // a rollback's restore ended: still rolling back
            default: status = .waiting(for: awaited)
            }
        case .stopping:
            if before.state.wire == .starting || before.state.wire == .ready { status = .stopping }
        case .backoff(let delay):
            status = .backoff(delay)
        case .failed(let gaveUp):
            if case .restoring = before { break }
            if let gaveUp { status = .gaveUp(gaveUp, restart: restart, window: ledger.budget.window) }
        case .ready:
            switch before {
            case .upgrading(let upgrade) where upgrade.stage == .preparing:
                status = upgrade.statusBefore // the old process serves on
            case .upgrading: status = .none
            default: break
            }
        case .upgrading(let upgrade):
            let processes = upgrade.processes
            switch upgrade.stage {
            case .preparing:
                status = .upgradePrepares(newPID: processes.newPID)
            case .handingOver:
                status = .upgradeDrains(
                    oldPID: processes.oldPID, newPID: processes.newPID, newServes: upgrade.readyAt != nil)
            case .finishing:
                if upgrade.readyAt == nil { status = .upgradeOpensStore(newPID: processes.newPID) }
            case .newProcessFailed:
                status = .upgradeFailed(processes, reason: upgrade.failure ?? "failed")
            }
        case .restoring:
            if case .upgrading = before { status = .rollingBack }
        }
    }
}
