import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// A service's lifecycle without processes: every state × event pair of ``ServiceStateMachine``,
/// with the next state and the actions the engine is asked to perform.
@Suite struct ServiceStateMachineTests {
    typealias Machine = ServiceStateMachine
    typealias State = Machine.State
    typealias Action = Machine.Action

    static let now = ContinuousClock.now
    static let upgrade = Machine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")
    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))

    /// One event, with the parameters the table uses.
    enum Event: String, CaseIterable, Sendable, CustomStringConvertible {
        case startRequested, activatedOnDemand, watchFailed, dependenciesMissing, dependenciesReady
        case dependencyReady, backoffElapsed, demand, spawned, spawnFailed, ready
        case watchdogPinged, watchdogMissed, livenessPassed, livenessFailedOnce, livenessFailedLast, aliveSeen
        case readyTimeoutElapsed, stoppingOnItsOwn
        case stopRequested, shutdownBegun, stopTimeoutElapsed
        case exitedCleanly, exitedWithFailure, exitedRestartCannotHelp, exitedIdle, exitedAtALimit
        case restoreBegun, restoreEnded, upgradeBegun, upgradeProcessWaitsForStore, upgradeProcessReady
        case upgradeProcessFailed, upgradeReadyTimeoutElapsed, upgradeProcessBackedUp
        case stoppedWithPeer, restartRequestedWithPeer

        var description: String { rawValue }

        /// Feeds the event to `machine`.
        func send(to machine: inout Machine) -> [Action] {
            let now = ServiceStateMachineTests.now
            switch self {
            case .startRequested: return machine.startRequested(fresh: true)
            case .activatedOnDemand: return machine.activatedOnDemand()
            case .watchFailed: return machine.watchFailed()
            case .dependenciesMissing: return machine.dependenciesChecked(missing: ["db"])
            case .dependenciesReady: return machine.dependenciesChecked(missing: [])
            case .dependencyReady: return machine.dependencyReady()
            case .backoffElapsed: return machine.backoffElapsed()
            case .demand: return machine.demand()
            case .spawned: return machine.spawned(at: now)
            case .spawnFailed: return machine.spawnFailed(at: now, reason: "cannot start: no such file")
            case .ready: return machine.ready(at: now)
            case .watchdogPinged: return machine.watchdogPinged()
            case .watchdogMissed: return machine.watchdogMissed(interval: .seconds(1))
            case .livenessPassed: return machine.livenessChecked(failure: nil, allowed: 3)
            case .livenessFailedOnce: return machine.livenessChecked(failure: "liveness: no answer", allowed: 3)
            case .livenessFailedLast: return machine.livenessChecked(failure: "liveness: no answer", allowed: 1)
            case .aliveSeen: return machine.aliveSeen(at: now)
            case .readyTimeoutElapsed: return machine.readyTimeoutElapsed(after: .seconds(5))
            case .stoppingOnItsOwn: return machine.stoppingOnItsOwn()
            case .stopRequested: return machine.stopRequested()
            case .shutdownBegun: return machine.shutdownBegun()
            case .stopTimeoutElapsed: return machine.stopTimeoutElapsed()
            case .exitedCleanly: return machine.exited(.init(success: true), at: now)
            case .exitedWithFailure: return machine.exited(.init(success: false), at: now)
            case .exitedRestartCannotHelp:
                return machine.exited(.init(success: false, restartCannotHelp: true), at: now)
            case .exitedIdle: return machine.exited(.init(success: true, wasReady: true, socketHeld: true), at: now)
            case .exitedAtALimit: return machine.exited(.init(success: false, limit: true), at: now)
            case .restoreBegun: return machine.restoreBegun()
            case .restoreEnded: return machine.restoreEnded(saying: nil)
            case .upgradeBegun:
                return machine.upgradeBegun(ServiceStateMachineTests.upgrade, at: ServiceStateMachineTests.now)
            case .upgradeProcessWaitsForStore: return machine.upgradeProcessWaitsForStore(at: now)
            case .upgradeProcessReady: return machine.upgradeProcessReady(at: now)
            case .upgradeProcessFailed: return machine.upgradeProcessFailed(words: "exited with status 1")
            case .upgradeReadyTimeoutElapsed: return machine.upgradeReadyTimeoutElapsed(after: .seconds(5))
            case .upgradeProcessBackedUp: return machine.upgradeProcessBackedUp(to: "catalog.before-upgrade.sqlite")
            case .stoppedWithPeer: return machine.stoppedWithPeer(reason: "stopped to restart with root (rest_for_one)")
            case .restartRequestedWithPeer: return machine.restartRequestedWithPeer()
            }
        }
    }

    /// What a pair leads to: the next state, whether the service is wanted then, the actions,
    /// and what the machine recorded (the table's machine starts with no exit and no restart).
    struct Outcome: Sendable, Equatable, CustomStringConvertible {
        let state: State
        let wanted: Bool
        let actions: [Action]
        /// Why its process ended, as `status` shows it.
        var recorded: Supervisor.ExitReason? = nil
        /// Restarts counted.
        var restarts = 0

        var description: String {
            "\(state)\(wanted ? " wanted" : "") \(actions)"
                + (recorded.map { " recorded \($0)" } ?? "") + (restarts > 0 ? " restarts \(restarts)" : "")
        }
    }

    /// Whether the service is wanted when the table starts it in `state`: as it would be there in
    /// a running supervisor (a stopped or failed one is not; one on its way up, or being upgraded, is).
    static func wantedIn(_ state: State) -> Bool {
        switch state {
        case .stopped, .failed, .stopping, .restoring(.stopped), .restoring(.failed): false
        default: true
        }
    }

    static let restartsAfter: Duration = .microseconds(100_000)
    /// The processes of an upgrade the table's machine is in (its default).
    static let tableUpgrade = Machine.UpgradeProcesses(oldPID: 1, newPID: 2, previousExecutable: "previous")
    static let readyActions: [Action] = [
        .noteReady, .cancelTimer, .armWatchdog, .armForgiveness, .armLiveness, .startDependents,
    ]
    static let stopActions: [Action] = [.stopHealthChecks, .sendStopSignal, .armTimer(.stop)]
    static let handOverActions: [Action] = [
        .cancelUpgradeReadyTimeout, .stopHealthChecks, .cancelForgiveness, .sendHandOverSignal, .armTimer(.stop),
    ]

    /// Any exit during an upgrade: the old process's promotes the new one; the new one's (its
    /// own, or after it failed during the hand-over) rolls back, whatever the exit status.
    /// `serving` is the exit recorded while the wire says ready or starting; `draining`, while
    /// it says stopping (the hand-over asked the old process to go).
    static func upgradeExits(serving: Supervisor.ExitReason, draining: Supervisor.ExitReason) -> [State: Outcome] {
        [
            .upgrading(.preparing): Outcome(
                state: .upgrading(.finishing), wanted: true,
                actions: [.noteOldProcessLeftFirst, .promoteUpgrade, .armUpgradeReadyTimeout], recorded: serving),
            .upgrading(.handingOver): Outcome(
                state: .upgrading(.finishing), wanted: true,
                actions: [.promoteUpgrade, .armUpgradeReadyTimeout], recorded: draining),
            .upgrading(.newProcessFailed): Outcome(
                state: .waiting, wanted: true, actions: [.rollBackUpgrade(backup: nil), .checkDependencies],
                recorded: draining),
            .upgrading(.finishing): Outcome(
                state: .waiting, wanted: true, actions: [.rollBackUpgrade(backup: nil), .checkDependencies],
                recorded: serving),
        ]
    }

    /// An exit's rows: stopping → stopped (its waiters answered); starting or ready → `next`,
    /// with `reason` recorded and `then` to follow; during an upgrade, as ``upgradeExits``.
    /// `whileStopping` is what is recorded while the wire says stopping.
    static func exits(
        recording reason: Supervisor.ExitReason, then next: State, wanted: Bool, _ then: [Action],
        whileStopping stopping: Supervisor.ExitReason
    ) -> [State: Outcome] {
        let running = Outcome(
            state: next, wanted: wanted, actions: then, recorded: reason,
            restarts: then.contains { if case .restart = $0 { true } else { false } } ? 1 : 0)
        return [
            .stopping: Outcome(state: .stopped, wanted: false, actions: [.notifyStopWaiters], recorded: stopping),
            .starting: running,
            .ready: running,
        ].merging(upgradeExits(serving: reason, draining: stopping)) { row, _ in row }
    }

    /// The table: every pair that changes something. Every pair not listed must leave the
    /// state and `wanted` as they were and ask for nothing (``ignored``).
    static let table: [Event: [State: Outcome]] = [
        .startRequested: [
            .stopped: Outcome(state: .stopped, wanted: true, actions: [.checkDependencies]),
            .failed: Outcome(state: .failed, wanted: true, actions: [.checkDependencies]),
            .idle: Outcome(state: .idle, wanted: true, actions: [.checkDependencies]),
            .stopping: Outcome(state: .stopping, wanted: true, actions: []),
        ],
        .activatedOnDemand: [
            .stopped: Outcome(state: .idle, wanted: true, actions: [.watchForDemand]),
            .failed: Outcome(state: .idle, wanted: true, actions: [.watchForDemand]),
            .stopping: Outcome(state: .stopping, wanted: true, actions: []),
        ],
        .watchFailed: [
            .idle: Outcome(state: .idle, wanted: true, actions: [.checkDependencies])
        ],
        .dependenciesMissing: [
            .waiting: Outcome(state: .waiting, wanted: true, actions: [.wait(for: ["db"])]),
            .backoff: Outcome(state: .waiting, wanted: true, actions: [.wait(for: ["db"])]),
            .idle: Outcome(state: .waiting, wanted: true, actions: [.stopWatchingForDemand, .wait(for: ["db"])]),
        ],
        .dependenciesReady: [
            .waiting: Outcome(state: .starting, wanted: true, actions: [.spawn]),
            .backoff: Outcome(state: .starting, wanted: true, actions: [.spawn]),
            .idle: Outcome(state: .starting, wanted: true, actions: [.stopWatchingForDemand, .spawn]),
        ],
        .dependencyReady: [
            .waiting: Outcome(state: .waiting, wanted: true, actions: [.checkDependencies])
        ],
        .backoffElapsed: [
            .backoff: Outcome(state: .backoff, wanted: true, actions: [.checkDependencies])
        ],
        .demand: [
            .idle: Outcome(state: .idle, wanted: true, actions: [.stopWatchingForDemand, .checkDependencies])
        ],
        .spawned: [
            .starting: Outcome(state: .starting, wanted: true, actions: [.armTimer(.readiness)])
        ],
        .spawnFailed: [
            .starting: Outcome(
                state: .backoff, wanted: true, actions: [.restart(after: restartsAfter)], recorded: .startFailed,
                restarts: 1)
        ],
        .ready: [
            .starting: Outcome(state: .ready, wanted: true, actions: readyActions),
            .upgrading(.finishing): Outcome(
                state: .ready, wanted: true,
                actions: readyActions + [
                    .answerUpgrade(.upgraded(.init(stage: .finishing, processes: tableUpgrade)))
                ]),
        ],
        .watchdogPinged: [
            .ready: Outcome(state: .ready, wanted: true, actions: [.armWatchdog])
        ],
        .watchdogMissed: [
            .ready: Outcome(state: .ready, wanted: true, actions: [.killForFailure(.watchdog)])
        ],
        .livenessPassed: [
            .ready: Outcome(state: .ready, wanted: true, actions: [.armLiveness])
        ],
        .livenessFailedOnce: [
            .ready: Outcome(state: .ready, wanted: true, actions: [.armLiveness])
        ],
        .livenessFailedLast: [
            .ready: Outcome(state: .ready, wanted: true, actions: [.killForFailure(.liveness)])
        ],
        // The table's machines were never ready (no instant to forgive from): checked again.
        .aliveSeen: [
            .ready: Outcome(state: .ready, wanted: true, actions: [.armForgiveness]),
            .upgrading(.preparing): Outcome(state: .upgrading(.preparing), wanted: true, actions: [.armForgiveness]),
        ],
        .readyTimeoutElapsed: [
            .starting: Outcome(state: .starting, wanted: true, actions: [.killForFailure(.readyTimeout)])
        ],
        .stoppingOnItsOwn: [
            .starting: Outcome(state: .starting, wanted: true, actions: [.stopHealthChecks]),
            .ready: Outcome(state: .ready, wanted: true, actions: [.stopHealthChecks]),
        ],
        .stopRequested: [
            .stopped: Outcome(state: .stopped, wanted: false, actions: [.notifyStopWaiters]),
            .failed: Outcome(state: .failed, wanted: false, actions: [.notifyStopWaiters]),
            .idle: Outcome(state: .stopped, wanted: false, actions: [.stopWatchingForDemand, .notifyStopWaiters]),
            .waiting: Outcome(state: .stopped, wanted: false, actions: [.cancelTimer, .notifyStopWaiters]),
            .backoff: Outcome(state: .stopped, wanted: false, actions: [.cancelTimer, .notifyStopWaiters]),
            .starting: Outcome(state: .stopping, wanted: false, actions: stopActions),
            .ready: Outcome(state: .stopping, wanted: false, actions: stopActions),
            .upgrading(.preparing): Outcome(
                state: .stopping, wanted: false, actions: [.abandonUpgrade(killsNewProcess: true)] + stopActions),
            .upgrading(.finishing): Outcome(
                state: .stopping, wanted: false, actions: [.abandonUpgrade(killsNewProcess: false)] + stopActions),
            .upgrading(.handingOver): Outcome(
                state: .stopping, wanted: false, actions: [.abandonUpgrade(killsNewProcess: true)]),
            .upgrading(.newProcessFailed): Outcome(
                state: .stopping, wanted: false, actions: [.abandonUpgrade(killsNewProcess: true)]),
            .restoring(.stopped): Outcome(state: .restoring(.stopped), wanted: false, actions: [.notifyStopWaiters]),
            .restoring(.failed): Outcome(state: .restoring(.failed), wanted: false, actions: [.notifyStopWaiters]),
            .restoring(.rollback): Outcome(state: .restoring(.stopped), wanted: false, actions: [.notifyStopWaiters]),
        ],
        .shutdownBegun: [
            .idle: Outcome(state: .idle, wanted: false, actions: []),
            .waiting: Outcome(state: .waiting, wanted: false, actions: []),
            .starting: Outcome(state: .starting, wanted: false, actions: []),
            .ready: Outcome(state: .ready, wanted: false, actions: []),
            .backoff: Outcome(state: .backoff, wanted: false, actions: []),
            .upgrading(.preparing): Outcome(state: .upgrading(.preparing), wanted: false, actions: []),
            .upgrading(.handingOver): Outcome(state: .upgrading(.handingOver), wanted: false, actions: []),
            .upgrading(.newProcessFailed): Outcome(state: .upgrading(.newProcessFailed), wanted: false, actions: []),
            .upgrading(.finishing): Outcome(state: .upgrading(.finishing), wanted: false, actions: []),
            .restoring(.rollback): Outcome(state: .restoring(.rollback), wanted: false, actions: []),
        ],
        .stopTimeoutElapsed: [
            .stopping: Outcome(state: .stopping, wanted: false, actions: [.kill]),
            .upgrading(.handingOver): Outcome(state: .upgrading(.handingOver), wanted: true, actions: [.kill]),
            .upgrading(.newProcessFailed): Outcome(
                state: .upgrading(.newProcessFailed), wanted: true, actions: [.kill]),
        ],
        // restart = on-failure: a clean exit stays down, no failure said.
        .exitedCleanly: exits(recording: .exit, then: .stopped, wanted: false, [], whileStopping: .stop),
        .exitedWithFailure: exits(
            recording: .crash, then: .backoff, wanted: true, [.restart(after: restartsAfter)], whileStopping: .stop),
        .exitedRestartCannotHelp: exits(
            recording: .crash, then: .failed, wanted: false, [.giveUp(.restartCannotHelp)], whileStopping: .stop),
        .exitedIdle: exits(
            recording: .exit, then: .idle, wanted: true, [.noteIdle, .watchForDemand], whileStopping: .stop),
        .exitedAtALimit: exits(
            recording: .limit, then: .backoff, wanted: true, [.restart(after: restartsAfter)], whileStopping: .limit),
        .restoreBegun: [
            .stopped: Outcome(state: .restoring(.stopped), wanted: false, actions: []),
            .failed: Outcome(state: .restoring(.failed), wanted: false, actions: []),
        ],
        .restoreEnded: [
            .restoring(.stopped): Outcome(state: .stopped, wanted: false, actions: []),
            .restoring(.failed): Outcome(state: .failed, wanted: false, actions: []),
            .restoring(.rollback): Outcome(state: .waiting, wanted: true, actions: [.checkDependencies]),
        ],
        .upgradeBegun: [
            .ready: Outcome(state: .upgrading(.preparing), wanted: true, actions: [.armUpgradeReadyTimeout])
        ],
        .upgradeProcessWaitsForStore: [
            .upgrading(.preparing): Outcome(state: .upgrading(.handingOver), wanted: true, actions: handOverActions)
        ],
        // Ready while the old one still serves: no store to wait for, the hand-over begins.
        .upgradeProcessReady: [
            .upgrading(.preparing): Outcome(state: .upgrading(.handingOver), wanted: true, actions: handOverActions),
            .upgrading(.handingOver): Outcome(state: .upgrading(.handingOver), wanted: true, actions: []),
            .upgrading(.finishing): Outcome(state: .upgrading(.finishing), wanted: true, actions: [.completeUpgrade]),
        ],
        .upgradeReadyTimeoutElapsed: [
            .upgrading(.preparing): Outcome(
                state: .upgrading(.preparing), wanted: true,
                actions: [.killNewProcess(reason: .deadline(afterHandOver: false, timeout: .seconds(5)))]),
            .upgrading(.finishing): Outcome(
                state: .upgrading(.finishing), wanted: true,
                actions: [.killNewProcess(reason: .deadline(afterHandOver: true, timeout: .seconds(5)))]),
        ],
        .upgradeProcessFailed: [
            .upgrading(.preparing): Outcome(
                state: .ready, wanted: true,
                actions: [.answerUpgrade(.failedBeforeHandOver(reason: "exited with status 1"))]),
            .upgrading(.handingOver): Outcome(state: .upgrading(.newProcessFailed), wanted: true, actions: []),
        ],
        // A strategy's peer: in any state, the stop is recorded, and its return counted, as a
        // start that keeps the budget.
        .stoppedWithPeer: Dictionary(
            uniqueKeysWithValues: State.all.map { state in
                (state, Outcome(state: state, wanted: wantedIn(state), actions: [], recorded: .stop))
            }),
        .restartRequestedWithPeer: Dictionary(
            uniqueKeysWithValues: State.all.map { state in
                let start = startedNotFresh[state]
                return (
                    state,
                    Outcome(
                        state: state, wanted: start?.wanted ?? wantedIn(state), actions: start?.actions ?? [],
                        restarts: 1)
                )
            }),
    ]

    /// A start that keeps the budget, in the states where it changes something: as any start.
    static let startedNotFresh: [State: (wanted: Bool, actions: [Action])] = [
        .stopped: (true, [.checkDependencies]), .failed: (true, [.checkDependencies]),
        .idle: (true, [.checkDependencies]), .stopping: (true, []),
    ]

    /// Every state × event pair, named for the test's output.
    struct Pair: Sendable, CustomTestStringConvertible {
        let state: State
        let event: Event
        var testDescription: String { "\(state) + \(event)" }
    }

    static let pairs: [Pair] = State.all.flatMap { state in Event.allCases.map { Pair(state: state, event: $0) } }

    /// The table's machine: in `state`, wanted as ``wantedIn(_:)`` says, restart = on-failure,
    /// `READY=1` expected, started on demand, a budget that is never spent.
    static func machine(in state: State) -> Machine {
        Machine(
            state: state, wanted: wantedIn(state), restart: .onFailure, backoff: backoff,
            budget: RestartBudget(maxRestarts: 100, window: .seconds(60)), notifiesReady: true, startsOnDemand: true)
    }

    /// Every state × event pair against ``table``; pairs it does not list are ignored.
    @Test("Given a state, when an event comes, then the machine moves as the table says", arguments: pairs)
    func everyStateAndEvent(_ pair: Pair) {
        var machine = Self.machine(in: pair.state)
        let ignored = Outcome(state: pair.state, wanted: Self.wantedIn(pair.state), actions: [])
        let expected = Self.table[pair.event]?[pair.state] ?? ignored
        let actions = pair.event.send(to: &machine)
        #expect(
            Outcome(
                state: machine.state, wanted: machine.wanted, actions: actions, recorded: machine.exitReason,
                restarts: machine.restarts) == expected)
    }

    /// What each state answers to a start, a restart, an upgrade and a restore, in that order:
    /// nil goes ahead, else why it is refused.
    static let refusals: [State: [Machine.Refusal?]] = [
        .stopped: [nil, nil, .notReady, nil],
        .failed: [nil, nil, .notReady, nil],
        .idle: [nil, nil, .notReady, .notStopped],
        .waiting: [nil, nil, .notReady, .notStopped],
        .starting: [nil, nil, .notReady, .notStopped],
        .ready: [nil, nil, nil, .notStopped],
        .backoff: [nil, nil, .notReady, .notStopped],
        .stopping: [nil, nil, .notReady, .notStopped],
        .upgrading(.preparing): [nil, nil, .upgrading, .notStopped],
        .upgrading(.handingOver): [nil, nil, .upgrading, .notStopped],
        .upgrading(.newProcessFailed): [nil, nil, .upgrading, .notStopped],
        .upgrading(.finishing): [nil, nil, .upgrading, .notStopped],
        .restoring(.stopped): [.restoring, .restoring, .restoring, .restoring],
        .restoring(.failed): [.restoring, .restoring, .restoring, .restoring],
        .restoring(.rollback): [.restoring, .restoring, .restoring, .notStopped],
    ]

    /// Every state × request pair against ``refusals``.
    @Test("Given a state, when the operator asks, then it is refused as the table says", arguments: State.all)
    func everyStateAndRequest(_ state: State) throws {
        let machine = Self.machine(in: state)
        let expected = try #require(Self.refusals[state])
        let requests: [Machine.Request] = [.start, .restart, .upgrade, .restore]
        #expect(requests.map { machine.refusal(of: $0) } == expected)
    }

    /// A typo in the table cannot hide a row: every state it names is one the machine has.
    @Test func theTableNamesOnlyKnownStates() {
        for (event, rows) in Self.table {
            for state in rows.keys { #expect(State.all.contains(state), "\(event): \(state)") }
        }
    }

    /// Upgrading and restoring stay off the wire: each is reported as the state it looks like.
    @Test func internalStatesAreReportedAsTheWireStateTheyLookLike() {
        #expect(State.upgrading(.preparing).wire == .ready)
        #expect(State.upgrading(.handingOver).wire == .stopping)
        #expect(State.upgrading(.newProcessFailed).wire == .stopping)
        #expect(State.upgrading(.finishing).wire == .starting)
        #expect(State.restoring(.stopped).wire == .stopped)
        #expect(State.restoring(.failed).wire == .failed)
        #expect(State.restoring(.rollback).wire == .waiting)
    }

    /// The budget's give-up, which the table's large budget never reaches.
    @Test func givenASpentBudget_whenItCrashes_thenItStaysFailed() {
        var machine = Machine(
            state: .ready, wanted: true, restart: .always, backoff: Self.backoff,
            budget: RestartBudget(maxRestarts: 1, window: .seconds(60)), notifiesReady: true)
        #expect(machine.exited(.init(success: false), at: Self.now) == [.restart(after: Self.restartsAfter)])
        #expect(machine.exitReason == .crash)
        #expect(machine.backoffElapsed() == [.checkDependencies])
        #expect(machine.dependenciesChecked(missing: []) == [.spawn])
        #expect(machine.spawned(at: Self.now) == [.armTimer(.readiness)])
        #expect(
            machine.exited(.init(success: false), at: Self.now + .seconds(1))
                == [.giveUp(.budgetSpent(count: 1))])
        #expect(machine.exitReason == .crash)
        #expect(machine.restarts == 1, "the give-up is no restart")
        #expect(machine.state == .failed)
        #expect(!machine.wanted)
    }

    /// `restart = never` gives up on a failed exit.
    @Test func givenRestartNever_whenItCrashes_thenItFailsByPolicy() {
        var machine = Machine(
            state: .ready, wanted: true, restart: .never, backoff: Self.backoff,
            budget: RestartBudget(maxRestarts: 5, window: .seconds(60)), notifiesReady: true)
        #expect(machine.exited(.init(success: false), at: Self.now) == [.giveUp(.policy)])
        #expect(machine.exitReason == .crash)
        #expect(machine.state == .failed)
    }

    /// `restart = always` restarts a clean exit too.
    @Test func givenRestartAlways_whenItExitsCleanly_thenItBacksOff() {
        var machine = Machine(
            state: .ready, wanted: true, restart: .always, backoff: Self.backoff,
            budget: RestartBudget(maxRestarts: 5, window: .seconds(60)), notifiesReady: true)
        #expect(machine.exited(.init(success: true), at: Self.now) == [.restart(after: Self.restartsAfter)])
        #expect(machine.exitReason == .exit)
        #expect(machine.state == .backoff)
    }

    /// Liveness failures count in a row only.
    @Test func givenThreeFailuresAllowed_whenTheThirdInARowFails_thenItIsKilled_andAPassResetsTheCount() {
        var machine = Self.machine(in: .ready)
        #expect(machine.livenessChecked(failure: "liveness: no answer", allowed: 3) == [.armLiveness])
        #expect(machine.livenessChecked(failure: nil, allowed: 3) == [.armLiveness])
        #expect(machine.livenessChecked(failure: "liveness: no answer", allowed: 3) == [.armLiveness])
        #expect(machine.livenessChecked(failure: "liveness: no answer", allowed: 3) == [.armLiveness])
        #expect(machine.livenessChecked(failure: "liveness: no answer", allowed: 3) == [.killForFailure(.liveness)])
    }

    /// Forgiveness needs the run seen alive `resetAfter` after readiness, and comes once.
    @Test func givenAFailedRunReadyForResetAfter_whenSeenAlive_thenTheBackoffIsForgivenOnce() {
        var machine = Self.machine(in: .ready)
        _ = machine.exited(.init(success: false), at: Self.now)
        _ = machine.backoffElapsed()
        _ = machine.dependenciesChecked(missing: [])
        _ = machine.spawned(at: Self.now)
        _ = machine.ready(at: Self.now)
        #expect(machine.aliveSeen(at: Self.now + .seconds(5)) == [.armForgiveness])
        #expect(machine.aliveSeen(at: Self.now + .seconds(10)) == [.backoffForgiven])
        #expect(machine.ledger.forgivenessDue == nil)
    }

    /// Readiness is the machine's record: set by `ready`, and gone at every exit, whatever the
    /// state then (a stop, a crash, an upgrade's old process handing over).
    @Test func givenAReadyProcess_whenItExits_inAnyStateWithAProcess_thenNoneIsReady() {
        for state: State in [.stopping, .ready, .upgrading(.handingOver)] {
            var machine = Self.machine(in: .starting)
            _ = machine.ready(at: Self.now)
            #expect(machine.readyAt == Self.now)
            if state == .stopping { _ = machine.stopRequested() }
            if state == .upgrading(.handingOver) {
                _ = machine.upgradeBegun(Self.upgrade, at: Self.now);
                _ = machine.upgradeProcessWaitsForStore(at: Self.now)
            }
            #expect(machine.state == state)
            _ = machine.exited(.init(success: true), at: Self.now)
            #expect(machine.readyAt == nil, "after an exit in \(state)")
        }
    }

    /// A reload's new policy applies from the next exit on; the restarts counted stay counted.
    @Test func givenRestartsCounted_whenThePolicyChanges_thenTheNextExitFollowsTheNewOne_withinTheSameBudget() {
        var machine = Self.machine(in: .ready)
        #expect(machine.exited(.init(success: false), at: Self.now) == [.restart(after: Self.restartsAfter)])
        #expect(machine.exitReason == .crash)
        _ = machine.backoffElapsed()
        _ = machine.dependenciesChecked(missing: [])
        _ = machine.spawned(at: Self.now)
        _ = machine.ready(at: Self.now)
        machine.configure(
            restart: .never, backoff: Self.backoff, budget: RestartBudget(maxRestarts: 1, window: .seconds(60)),
            notifiesReady: true, startsOnDemand: false)
        #expect(machine.restart == .never)
        #expect(machine.ledger.restartsInWindow(at: Self.now) == 1)
        #expect(machine.exited(.init(success: false), at: Self.now) == [.giveUp(.policy)])
        #expect(machine.exitReason == .crash)
    }

    /// A kill for a failure is remembered until the exit, whatever status it reports.
    @Test func givenAMissedWatchdog_whenTheKilledProcessExits_thenItIsRecordedAsTheWatchdogs_andRestarted() {
        var machine = Self.machine(in: .ready)
        #expect(machine.watchdogMissed(interval: .seconds(1)) == [.killForFailure(.watchdog)])
        #expect(machine.exited(.init(success: true), at: Self.now) == [.restart(after: Self.restartsAfter)])
        #expect(machine.exitReason == .watchdog)
        #expect(machine.pendingFailure == nil)
    }

    /// An upgrade without a store to wait for completes as soon as the old process is gone.
    @Test func givenANewProcessReadyBeforeTheHandOver_whenTheOldOneExits_thenTheUpgradeCompletes() throws {
        var machine = Self.machine(in: .ready)
        #expect(machine.upgradeBegun(Self.upgrade, at: Self.now) == [.armUpgradeReadyTimeout])
        #expect(machine.upgradeProcessReady(at: Self.now) == Self.handOverActions)
        #expect(machine.exited(.init(success: true), at: Self.now) == [.promoteUpgrade, .completeUpgrade])
        #expect(machine.exitReason == .stop)
        let record = try #require(machine.upgrade)
        #expect(machine.ready(at: Self.now) == Self.readyActions + [.answerUpgrade(.upgraded(record))])
        #expect(machine.state == .ready)
    }

    /// An upgrade whose new process opens the store after the hand-over waits for its `READY=1`.
    @Test func givenANewProcessThatWaitsForTheStore_whenTheOldOneExits_thenItHasItsReadyTimeout() {
        var machine = Self.machine(in: .ready)
        _ = machine.upgradeBegun(Self.upgrade, at: Self.now)
        #expect(machine.upgradeProcessWaitsForStore(at: Self.now) == Self.handOverActions)
        #expect(
            machine.exited(.init(success: true), at: Self.now)
                == [.promoteUpgrade, .armUpgradeReadyTimeout])
        #expect(machine.exitReason == .stop)
        #expect(machine.upgradeProcessReady(at: Self.now) == [.completeUpgrade])
    }

    /// A process that exits 0 before readiness is not idled (it would start again at once).
    @Test func givenAnOnDemandServiceNeverReady_whenItExitsCleanly_thenItIsNotIdle() {
        var machine = Self.machine(in: .starting)
        #expect(machine.exited(.init(success: true, wasReady: false, socketHeld: true), at: Self.now) == [])
        #expect(machine.exitReason == .exit)
        #expect(machine.state == .stopped)
    }

    /// Only a service started on demand goes idle on a clean exit.
    @Test func givenAServiceStartedAtOnce_whenItExitsCleanlyAfterReady_thenItIsNotIdle() {
        var machine = Machine(
            state: .ready, wanted: true, restart: .onFailure, backoff: Self.backoff,
            budget: RestartBudget(maxRestarts: 5, window: .seconds(60)), notifiesReady: true, startsOnDemand: false)
        #expect(machine.exited(.init(success: true, wasReady: true, socketHeld: true), at: Self.now) == [])
        #expect(machine.exitReason == .exit)
        #expect(machine.state == .stopped)
    }

    /// `readiness = none`: the spawn arms no ready timeout; the engine says ready at once.
    @Test func givenNoReadinessProtocol_whenSpawned_thenItArmsNoReadyTimeout() {
        var machine = Machine(
            state: .starting, wanted: true, restart: .always, backoff: Self.backoff,
            budget: RestartBudget(maxRestarts: 5, window: .seconds(60)), notifiesReady: false)
        #expect(machine.spawned(at: Self.now) == [])
        #expect(machine.ready(at: Self.now) == Self.readyActions)
    }

    /// A start asked for while stopping starts it once the process is gone.
    @Test func givenAStartAskedWhileStopping_whenTheProcessExits_thenItStartsAgain() {
        var machine = Self.machine(in: .stopping)
        #expect(machine.startRequested(fresh: true) == [])
        #expect(
            machine.exited(.init(success: true), at: Self.now) == [.checkDependencies, .notifyStopWaiters])
        #expect(machine.exitReason == .stop)
        #expect(machine.dependenciesChecked(missing: []) == [.spawn])
        #expect(machine.state == .starting)
    }

    /// A `one_for_all` member waits for the members before it; readiness clears the holds, a
    /// restart with its peer keeps them, a fresh start and an on-demand activation drop them.
    @Test func givenHoldsFromAGroupRestart_whenItBecomesReadyOrStartsAfresh_thenTheyAreGone() {
        var machine = Self.machine(in: .backoff)
        #expect(machine.heldUntilReady(["db", "cache"]) == [])
        #expect(machine.holds == ["db", "cache"])
        #expect(machine.restartRequestedWithPeer() == [])
        #expect(machine.holds == ["db", "cache"], "a restart with its peer keeps what it waits for")
        #expect(machine.backoffElapsed() == [.checkDependencies])
        #expect(machine.dependenciesChecked(missing: []) == [.spawn])
        #expect(machine.ready(at: Self.now) == Self.readyActions)
        #expect(machine.holds.isEmpty)

        var fresh = Self.machine(in: .failed)
        _ = fresh.heldUntilReady(["db"])
        _ = fresh.startRequested(fresh: true)
        #expect(fresh.holds.isEmpty)

        var onDemand = Self.machine(in: .stopped)
        _ = onDemand.heldUntilReady(["db"])
        _ = onDemand.activatedOnDemand()
        #expect(onDemand.holds.isEmpty)
    }

    /// What it waits for is the last check's answer; a rollback into `waiting` starts with none,
    /// so the first check after it is said even when its list is the one before the upgrade.
    @Test func givenAWaitingService_whenTheChecksAnswer_thenItRecordsWhatItAwaits() {
        var machine = Self.machine(in: .stopped)
        _ = machine.startRequested(fresh: true)
        #expect(machine.dependenciesChecked(missing: ["db", "cache"]) == [.wait(for: ["db", "cache"])])
        #expect(machine.awaited == ["db", "cache"])
        #expect(machine.dependenciesChecked(missing: ["cache"]) == [.wait(for: ["cache"])])
        #expect(machine.awaited == ["cache"])
        #expect(machine.phase == .waiting(awaited: ["cache"]) && machine.status == .waiting(for: ["cache"]))
        #expect(machine.dependenciesChecked(missing: []) == [.spawn])
        #expect(machine.awaited.isEmpty)

        var upgrading = Self.machine(in: .upgrading(.finishing))
        _ = upgrading.dependenciesChecked(missing: ["db"])
        #expect(
            upgrading.exited(.init(success: false), at: Self.now) == [
                .rollBackUpgrade(backup: nil), .checkDependencies,
            ])
        #expect(upgrading.state == .waiting)
        #expect(upgrading.awaited.isEmpty)
    }

    /// The exit that decides the backoff or the giving up leaves its reason with the state.
    @Test func givenAFailingService_whenItExits_thenTheDelayOrWhyItStaysDownIsRecorded() {
        var machine = Self.machine(in: .ready)
        #expect(machine.exited(.init(success: false), at: Self.now) == [.restart(after: .milliseconds(100))])
        #expect(machine.backoffDelay == .milliseconds(100))
        #expect(machine.gaveUp == nil)

        var spent = Machine(
            state: .ready, wanted: true, restart: .always, backoff: Self.backoff,
            budget: RestartBudget(maxRestarts: 0, window: .seconds(60)), notifiesReady: true)
        #expect(spent.exited(.init(success: false), at: Self.now) == [.giveUp(.budgetSpent(count: 0))])
        #expect(spent.gaveUp == .budgetSpent(count: 0))
        #expect(spent.state == .failed && !spent.wanted)

        var cannotHelp = Self.machine(in: .starting)
        _ = cannotHelp.exited(.init(success: false, restartCannotHelp: true), at: Self.now)
        #expect(cannotHelp.gaveUp == .restartCannotHelp)
    }

    /// Why it stays down is the failed case's: kept through a restore, gone with a start.
    @Test func givenAServiceThatGaveUp_whenRestoredThenStarted_thenWhyItStayedDownGoesWithTheState() {
        var machine = Self.machine(in: .starting)
        _ = machine.exited(.init(success: false, restartCannotHelp: true), at: Self.now)
        _ = machine.restoreBegun()
        #expect(machine.gaveUp == .restartCannotHelp)
        _ = machine.restoreEnded(saying: nil)
        #expect(machine.phase == .failed(gaveUp: .restartCannotHelp))
        _ = machine.startRequested(fresh: true)
        _ = machine.dependenciesChecked(missing: [])
        #expect(machine.state == .starting && machine.gaveUp == nil)
        #expect(machine.backoffDelay == nil)
    }
}
