import VerticalsContract
import VerticalsWire

/// One supervised service and everything around it, simulated in one thread: its processes, its
/// timers on the simulated clocks, its socket, its dependency, the restore that runs off the
/// loop, and the operators' commands with their answers. The core (``ServiceStateMachine``) is
/// the real one; this world plays the engine's part as the engine does today (it performs the
/// core's actions and turns what happens into events, in `SimulatedWorld+Actions`), and records
/// what the invariants check (`SimulatedWorld+Invariants`).
///
/// Nothing here reads a real clock, a file or a process: a run is the configuration and the
/// list of happenings applied to it, so the same list replays the same run, step for step.
final class SimulatedWorld {
    /// A running simulated process.
    struct Process {
        let pid: Int
        /// It said `READY=1` (or, without readiness, was started).
        var ready = false
        /// It was sent its stop signal: it accepts no more callers.
        var stopSignalled = false
        /// It was sent `SIGKILL`: its exit is that.
        var killed = false
        /// It prepared and waits for the store (an upgrade's new process).
        var waitsForStore = false
        /// When the service's process started (nil for Litestream's).
        var startedAt: ContinuousClock.Instant?

        /// Whether it accepts callers.
        var serving: Bool { ready && !stopSignalled && !killed }
    }

    /// The timers the engine keeps for a service (and its upgrade).
    enum Timer: Int, CaseIterable, Comparable, CustomStringConvertible {
        case unit, watchdog, forgiveness, liveness, upgrade
        /// The replica's backoff or stop timeout, and its forgiveness check.
        case replica, replicaForgiveness

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        var description: String {
            "\(["unit", "watchdog", "forgiveness", "liveness", "upgrade", "replica", "replica forgiveness"][rawValue]) timer"
        }
    }

    /// What the unit's one timer was armed for.
    enum UnitTimerPurpose {
        case readiness, stop, backoff
    }

    /// An upgrade under way, as the engine's `UpgradeRun` records it.
    struct Upgrade {
        /// The `upgrade` command it answers.
        let command: Int
        let oldPID: Int
        let newPID: Int
        var promoted = false
    }

    /// What waits for the service's process to be gone.
    enum StopWaiter {
        case stop(command: Int), restart(command: Int), down(command: Int)
    }

    /// The restore that runs off the loop.
    enum Restore {
        /// An operator's: answers `command` when it ends.
        case requested(command: Int)
        /// A failed upgrade's rollback: starts the previous executable when it ends.
        case rollback
    }

    /// What the run broke: the invariant's name and what it saw.
    ///
    /// Its ``code`` is `invariantBroken`; the invariant is also the detail `invariant`.
    struct Violation: CodedError {
        /// What kind of failure it is.
        typealias Code = ErrorKind<Violation>

        var invariant: String
        var detail: String

        /// What kind of failure it is: always `invariantBroken`.
        var code: Code { .invariantBroken }
        /// The invariant, then what the run saw.
        var message: String { "\(invariant): \(detail)" }
        /// The invariant, as the detail `invariant`.
        var details: [ErrorDetail] { [ErrorDetail("invariant", invariant)] }
    }

    let configuration: SimulationConfiguration
    /// Actions the world drops instead of performing: a broken shell, to show the invariants see it.
    let dropped: Set<ServiceStateMachine.Action>
    /// The replica's actions the world drops: a broken replica shell.
    let droppedReplica: Set<ReplicaStateMachine.Action>
    private(set) var machine: ServiceStateMachine
    /// The replica's Litestream, when the service has one.
    private(set) var replica: ReplicaStateMachine?
    /// Its process, while one runs (apart from ``processes``: it never serves).
    private(set) var replicaProcess: Process?
    private(set) var clocks: SimulatedClocks
    /// The processes alive, by pid.
    private(set) var processes: [Int: Process] = [:]
    private var nextPID = 100
    /// The service's own process (the unit's `pid`).
    private(set) var ownPID: Int?
    private(set) var upgrade: Upgrade?
    /// Each armed timer's deadline, on the monotonic clock.
    private(set) var timers: [Timer: Duration] = [:]
    private(set) var unitTimerPurpose = UnitTimerPurpose.readiness
    /// The upgrade timer's owner (it stops when that upgrade is answered).
    private var upgradeTimerOwner: Int?
    private(set) var socketOpen = true
    private(set) var watchingForDemand = false
    /// The status text `status` shows: the core's, as the engine shows it.
    var statusText: String { machine.statusText(service: "simulated") }
    private(set) var dependencyReady = false
    private(set) var executableBroken = false
    private(set) var restore: Restore?
    /// The work a spawn waits for off the loop that runs: its folders' walk
    /// (``SimulationConfiguration/preparesSpawn``), or its first store's restore from its replica
    /// (``SimulationConfiguration/storeMissing``).
    private(set) var preparation: ServiceStateMachine.Preparation?
    /// Whether a spawn waits for work off the loop (``preparation``).
    var preparing: Bool { preparation != nil }
    /// The store is there: from the start, unless ``SimulationConfiguration/storeMissing``, then
    /// once its first restore has ended well.
    private(set) var storeExists = true
    private var stopWaiters: [StopWaiter] = []
    /// Commands (`stop`, `down`) answered once the replica's Litestream is gone too.
    private var replicaWaiters: [Int] = []
    /// A rolled-back upgrade waits for the core's answer, by the state its service reaches next.
    private var rollback: Upgrade?
    /// Answers given to each command, by the command's number.
    private(set) var answers: [Int] = []
    private(set) var commandNames: [SimulationCommand] = []
    /// When each restart was decided since the last fresh start, on the continuous clock.
    private var restartDecisions: [Duration] = []
    /// The monotonic instant before which no restart may spawn.
    private var backoffUntil: Duration?
    /// Set when a `down` was answered during the current step.
    private var downAnswered = false
    /// (state, event) pairs fed to the core.
    private(set) var coverage: Set<SimulationCoverage.Pair> = []
    /// The first invariant broken, if one was.
    private(set) var violation: Violation?
    /// The wire states `status`'s followers heard (the engine's `emit`), in order: the first is
    /// what a follower gets as it starts to follow.
    private(set) var heard: [Supervisor.ServiceState] = [.stopped]
    /// The wire states the core passed through, in order, each change once: what followers must hear.
    private(set) var passed: [Supervisor.ServiceState] = [.stopped]
    /// How much of ``heard`` (its repeats of `waiting` left out) and ``passed`` agree, as checked.
    var followersChecked = 0
    /// ``heard`` without the repeats of `waiting` (its list changed), as ``passed`` is compared.
    private(set) var heardChanges: [Supervisor.ServiceState] = [.stopped]

    /// A world whose service the supervisor's `up` just activated.
    init(
        configuration: SimulationConfiguration, origin: ContinuousClock.Instant,
        dropping dropped: Set<ServiceStateMachine.Action> = [],
        droppingReplica droppedReplica: Set<ReplicaStateMachine.Action> = []
    ) {
        self.configuration = configuration
        self.dropped = dropped
        self.droppedReplica = droppedReplica
        storeExists = !configuration.storeMissing
        clocks = SimulatedClocks(origin: origin)
        machine = ServiceStateMachine(
            restart: configuration.restart, backoff: configuration.backoff, budget: configuration.budget,
            notifiesReady: configuration.notifiesReady, startsOnDemand: configuration.startsOnDemand)
        if configuration.replicated {
            replica = ReplicaStateMachine(backoff: configuration.backoff, budget: configuration.budget)
        }
        if configuration.startsOnDemand {
            feed(.activatedOnDemand) { $0.activatedOnDemand() }
        } else {
            feed(.startRequested) { $0.startRequested(fresh: true) }
        }
        check()
    }

    // MARK: Feeding the core

    /// Feeds one event to the core, as the engine's `transition` does, and performs its actions.
    func feed(_ event: SimulationCoverage.Event, _ body: (inout ServiceStateMachine) -> [ServiceStateMachine.Action]) {
        coverage.insert(SimulationCoverage.Pair(state: machine.state, event: event))
        let actions = machine.handle(body)
        if machine.state.wire != passed.last { passed.append(machine.state.wire) }
        for action in actions where !dropped.contains(action) { perform(action) }
    }

    /// `status`'s followers hear the service's state, as the engine's `emit` says it.
    func followersHear() {
        let state = machine.state.wire
        if state == heard.last, state != .waiting {
            violate("followers hear each state once", "followers were told \(state) twice in a row")
        }
        if state != heardChanges.last { heardChanges.append(state) }
        heard.append(state)
    }

    /// Feeds one event to the replica's machine, as the engine's `transitionReplica` does.
    func feedReplica(_ body: (inout ReplicaStateMachine) -> [ReplicaStateMachine.Action]) {
        guard var machine = replica else { return }
        let actions = body(&machine)
        replica = machine
        for action in actions where !droppedReplica.contains(action) { performReplica(action) }
    }

    func setReplicaProcess(_ process: Process?) { replicaProcess = process }
    func updateReplicaProcess(_ change: (inout Process) -> Void) {
        if var process = replicaProcess {
            change(&process)
            replicaProcess = process
        }
    }

    /// Answers an upgrade, once, and stops its timer (`UpgradeRun.finish`).
    func finish(_ upgrade: Upgrade) {
        if upgradeTimerOwner == upgrade.command {
            timers[.upgrade] = nil
            upgradeTimerOwner = nil
        }
        answer(upgrade.command)
    }

    /// Answers command `number`.
    func answer(_ number: Int) {
        answers[number] += 1
        if answers[number] > 1 {
            violate("one answer per command", "command \(number) (\(commandNames[number])) was answered twice")
        }
        if case .down = commandNames[number] { downAnswered = true }
    }

    /// Records the first broken invariant.
    func violate(_ invariant: String, _ detail: String) {
        if violation == nil { violation = Violation(invariant: invariant, detail: detail) }
    }

    // MARK: Processes

    /// A pid no process of the run had.
    func takePID() -> Int {
        nextPID += 1
        return nextPID
    }

    /// Starts a process; it is ready at once when the service has no readiness protocol.
    func startProcess() -> Int {
        nextPID += 1
        processes[nextPID] = Process(pid: nextPID, ready: !configuration.notifiesReady, startedAt: clocks.now)
        return nextPID
    }

    /// The pid a role names now, if that process is alive.
    func pid(of role: SimulatedRole) -> Int? {
        switch role {
        case .own:
            return ownPID.flatMap { processes[$0] == nil ? nil : $0 }
        case .upgrade:
            guard let upgrade, !upgrade.promoted, processes[upgrade.newPID] != nil else { return nil }
            return upgrade.newPID
        case .orphan:
            return processes.keys.sorted().first { $0 != ownPID && $0 != upgrade?.newPID }
        }
    }

    /// Signals the unit's process as the engine's `signalGroup` does.
    func signalOwn(kill: Bool) {
        guard let pid = ownPID, processes[pid] != nil else { return }
        if kill { processes[pid]?.killed = true } else { processes[pid]?.stopSignalled = true }
    }

    func markKilled(_ pid: Int) {
        processes[pid]?.killed = true
    }

    // MARK: Timers

    func arm(_ timer: Timer, after delay: Duration) {
        timers[timer] = clocks.monotonic + delay
    }

    func armUnitTimer(_ purpose: UnitTimerPurpose, after delay: Duration) {
        unitTimerPurpose = purpose
        arm(.unit, after: delay)
    }

    func armUpgradeTimer(for upgrade: Upgrade) {
        upgradeTimerOwner = upgrade.command
        arm(.upgrade, after: configuration.readyTimeout)
    }

    func cancel(_ timer: Timer) {
        timers[timer] = nil
        if timer == .upgrade { upgradeTimerOwner = nil }
    }

    /// The timer that fires next, and when.
    var nextTimer: (timer: Timer, deadline: Duration)? {
        timers.min { ($0.value, $0.key) < ($1.value, $1.key) }.map { ($0.key, $0.value) }
    }

    // MARK: Bookkeeping the invariants read

    /// A restart was decided with `delay`: it counts against the budget, and no spawn may come before it ends.
    func restartDecided(after delay: Duration) {
        restartDecisions.append(clocks.continuous)
        let window = configuration.budget.window
        let inWindow = restartDecisions.filter { clocks.continuous - $0 <= window }.count
        if inWindow > configuration.budget.maxRestarts {
            violate(
                "restart budget", "\(inWindow) restarts within \(window), \(configuration.budget.maxRestarts) allowed")
        }
        backoffUntil = clocks.monotonic + delay
    }

    /// A start asked for: a fresh budget and no backoff to wait out.
    func freshStart() {
        restartDecisions = []
        backoffUntil = nil
    }

    /// A process is about to be spawned for the service: none may run, and no backoff be left.
    func spawning() {
        if let pid = ownPID, processes[pid] != nil {
            violate("one process per service", "a new process starts while pid \(pid) runs")
        }
        if let until = backoffUntil, clocks.monotonic < until {
            violate("backoff honoured", "a restart spawned \(until - clocks.monotonic) before its backoff ended")
        }
        backoffUntil = nil
    }

    // MARK: State the shell changes

    func setOwn(_ pid: Int?) { ownPID = pid }
    func setUpgrade(_ upgrade: Upgrade?) { self.upgrade = upgrade }
    func updateUpgrade(_ change: (inout Upgrade) -> Void) {
        if var upgrade {
            change(&upgrade)
            self.upgrade = upgrade
        }
    }
    func setRestore(_ restore: Restore?) { self.restore = restore }
    func setPreparation(_ preparation: ServiceStateMachine.Preparation?) { self.preparation = preparation }
    func setStoreExists() { storeExists = true }
    func setWatching(_ watching: Bool) { watchingForDemand = watching }
    func setSocket(open: Bool) { socketOpen = open }
    func rollingBack(_ upgrade: Upgrade) { rollback = upgrade }
    func takeRollingBack() -> Upgrade? {
        defer { rollback = nil }
        return rollback
    }
    func addStopWaiter(_ waiter: StopWaiter) { stopWaiters.append(waiter) }
    func addReplicaWaiter(_ command: Int) { replicaWaiters.append(command) }
    func takeReplicaWaiters() -> [Int] {
        defer { replicaWaiters = [] }
        return replicaWaiters
    }
    func takeStopWaiters() -> [StopWaiter] {
        defer { stopWaiters = [] }
        return stopWaiters
    }
    func updateProcess(_ pid: Int, _ change: (inout Process) -> Void) {
        if var process = processes[pid] {
            change(&process)
            processes[pid] = process
        }
    }
    func removeProcess(_ pid: Int) { processes[pid] = nil }
    func setDependency(ready: Bool) { dependencyReady = ready }
    func setExecutable(broken: Bool) { executableBroken = broken }
    func advanceClocks(_ change: (inout SimulatedClocks) -> Void) { change(&clocks) }

    /// Numbers a new command.
    func issue(_ command: SimulationCommand) -> Int {
        commandNames.append(command)
        answers.append(0)
        downAnswered = false
        return answers.count - 1
    }

    /// Whether a `down` was answered since the step began (cleared at each step).
    func takeDownAnswered() -> Bool {
        defer { downAnswered = false }
        return downAnswered
    }
}

extension ErrorKind where Domain == SimulatedWorld.Violation {
    /// An invariant did not hold.
    static var invariantBroken: Self { Self("invariantBroken") }
}
