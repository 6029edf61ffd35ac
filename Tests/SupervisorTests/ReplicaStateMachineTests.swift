import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// The life of a replica's Litestream without processes: each state × event of
/// ``ReplicaStateMachine``, with the next state and the actions the engine is asked to perform.
@Suite struct ReplicaStateMachineTests {
    typealias Machine = ReplicaStateMachine
    typealias Action = Machine.Action

    static let now = ContinuousClock.now
    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))
    static let budget = RestartBudget(maxRestarts: 2, window: .seconds(60))

    static func machine(_ state: Machine.State, wanted: Bool = true) -> Machine {
        Machine(state: state, wanted: wanted, backoff: backoff, budget: budget)
    }

    @Test func verticalReady_whenStopped_startsLitestream() {
        var machine = Machine(backoff: Self.backoff, budget: Self.budget)
        #expect(machine.verticalEntered(.ready) == [.spawn])
        #expect(machine.state == .starting)
        #expect(machine.spawned(at: Self.now) == [.armForgiveness])
        #expect(machine.state == .running)
        #expect(machine.runningSince == Self.now)
    }

    @Test(arguments: [
        ServiceStateMachine.State.waiting, .starting, .backoff, .upgrading(.preparing), .upgrading(.handingOver),
        .upgrading(.finishing),
    ])
    func verticalRestartingOrUpgrading_whenRunning_leavesLitestreamRunning(_ vertical: ServiceStateMachine.State) {
        var machine = Self.machine(.running)
        #expect(machine.verticalEntered(vertical) == [])
        #expect(machine.state == .running)
    }

    @Test(arguments: [
        ServiceStateMachine.State.stopped, .failed, .idle, .stopping, .restoring(.stopped), .restoring(.rollback),
    ])
    func verticalDownOrRestored_whenRunning_stopsLitestream(_ vertical: ServiceStateMachine.State) {
        var machine = Self.machine(.running)
        #expect(machine.verticalEntered(vertical) == [.cancelForgiveness, .sendStopSignal, .armStopTimer])
        #expect(machine.state == .stopping)
        #expect(!machine.wanted)
        #expect(machine.stopTimeoutElapsed() == [.kill])
        #expect(machine.exited(success: false, at: Self.now) == [.cancelTimer, .notifyStopWaiters])
        #expect(machine.state == .stopped)
        #expect(machine.exitReason == .stop)
    }

    @Test func verticalDown_whenBackingOff_stopsAtOnce() {
        var machine = Self.machine(.backoff)
        #expect(machine.verticalEntered(.stopping) == [.cancelTimer, .notifyStopWaiters])
        #expect(machine.state == .stopped)
        #expect(machine.backoffElapsed() == [])
    }

    @Test(arguments: [Machine.State.stopped, .failed])
    func verticalDown_whenNothingRuns_answersWaitersAtOnce(_ state: Machine.State) {
        var machine = Self.machine(state, wanted: false)
        #expect(machine.verticalEntered(.stopped) == [.notifyStopWaiters])
        #expect(machine.state == state)
    }

    @Test func exit_whenRunningAndWanted_restartsAfterBackoff() {
        var machine = Self.machine(.running)
        #expect(machine.exited(success: false, at: Self.now) == [.cancelForgiveness, .armBackoff(.milliseconds(100))])
        #expect(machine.state == .backoff)
        #expect(machine.restarts == 1)
        #expect(machine.exitReason == .crash)
        #expect(machine.backoffElapsed() == [.spawn])
        #expect(machine.state == .starting)
    }

    @Test func cleanExit_whenRunningAndWanted_isAFailureToo() {
        var machine = Self.machine(.running)
        #expect(machine.exited(success: true, at: Self.now) == [.cancelForgiveness, .armBackoff(.milliseconds(100))])
        #expect(machine.exitReason == .exit)
    }

    @Test func exits_pastTheBudget_giveUpUntilTheVerticalIsReadyAgain() {
        var machine = Self.machine(.running)
        for _ in 0..<Self.budget.maxRestarts {
            _ = machine.exited(success: false, at: Self.now)
            _ = machine.backoffElapsed()
            _ = machine.spawned(at: Self.now)
        }
        #expect(
            machine.exited(success: false, at: Self.now) == [
                .cancelForgiveness, .giveUp(.budgetSpent(count: 2)), .notifyStopWaiters,
            ])
        #expect(machine.state == .failed)
        #expect(machine.verticalEntered(.backoff) == [])
        #expect(machine.verticalEntered(.ready) == [.spawn])
        #expect(machine.gaveUp == nil)
    }

    @Test func programMissing_staysDownWithoutRetrying() {
        var machine = Self.machine(.starting)
        #expect(machine.programMissing() == [.giveUp(.programMissing), .notifyStopWaiters])
        #expect(machine.state == .failed)
        #expect(machine.exitReason == .startFailed)
        #expect(machine.backoffElapsed() == [])
    }

    @Test func spawnFailed_isCountedAsAFailedExit() {
        var machine = Self.machine(.starting)
        #expect(machine.spawnFailed(at: Self.now) == [.armBackoff(.milliseconds(100))])
        #expect(machine.state == .backoff)
        #expect(machine.exitReason == .startFailed)
    }

    @Test func readyAgain_whileStopping_startsOnceTheProcessIsGone() {
        var machine = Self.machine(.running)
        _ = machine.verticalEntered(.stopping)
        #expect(machine.verticalEntered(.ready) == [])
        #expect(machine.exited(success: true, at: Self.now) == [.cancelTimer, .spawn, .notifyStopWaiters])
        #expect(machine.state == .starting)
    }

    @Test func exit_whenNotWanted_stopsWithoutRestart() {
        var machine = Self.machine(.running, wanted: false)
        #expect(machine.exited(success: false, at: Self.now) == [.cancelForgiveness, .notifyStopWaiters])
        #expect(machine.state == .stopped)
    }

    @Test func healthyRun_forgivesTheBackoff() {
        var machine = Self.machine(.running)
        _ = machine.exited(success: false, at: Self.now)
        _ = machine.backoffElapsed()
        #expect(machine.spawned(at: Self.now) == [.armForgiveness])
        #expect(machine.aliveSeen(at: Self.now + .seconds(1)) == [.armForgiveness])
        #expect(machine.aliveSeen(at: Self.now + .seconds(10)) == [])
        #expect(machine.exited(success: false, at: Self.now + .seconds(11)).contains(.armBackoff(.milliseconds(100))))
    }

    /// No event traps or leaves a process-less state with a process-only action.
    @Test(arguments: Machine.State.allCases)
    func everyEvent_inEveryState_isAnsweredWithoutATrap(_ state: Machine.State) {
        let events: [(inout Machine) -> [Action]] = [
            { $0.verticalEntered(.ready) }, { $0.verticalEntered(.stopped) }, { $0.spawned(at: Self.now) },
            { $0.spawnFailed(at: Self.now) }, { $0.programMissing() }, { $0.exited(success: true, at: Self.now) },
            { $0.exited(success: false, at: Self.now) }, { $0.backoffElapsed() }, { $0.stopTimeoutElapsed() },
            { $0.aliveSeen(at: Self.now) },
        ]
        for wanted in [true, false] {
            for event in events {
                var machine = Self.machine(state, wanted: wanted)
                let actions = event(&machine)
                if [.stopped, .failed, .backoff].contains(state) {
                    #expect(!actions.contains(.sendStopSignal) && !actions.contains(.kill))
                }
            }
        }
    }
}
