import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// Work a spawn waits for off the loop (a folders' walk, a first store's restore): its start and
/// end are the core's events, and the core decides what its end leads to.
@Suite struct ServiceStateMachinePreparationTests {
    static let now = ContinuousClock.now
    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))

    /// A service asked to spawn, whose spawn waits for its folders' walk.
    static func preparing() -> ServiceStateMachine {
        var machine = ServiceStateMachine(
            restart: .onFailure, backoff: backoff, budget: RestartBudget(maxRestarts: 5, window: .seconds(60)),
            notifiesReady: true)
        _ = machine.startRequested(fresh: true)
        #expect(machine.dependenciesChecked(missing: []) == [.spawn])
        #expect(machine.preparationBegun(.foldersGiven) == [])
        #expect(machine.preparing)
        return machine
    }

    @Test func walkEndedWell_whileStarting_spawns() {
        var machine = Self.preparing()
        #expect(machine.preparationEnded(failure: nil, at: Self.now) == [.spawn])
        #expect(machine.state == .starting && !machine.preparing)
    }

    @Test func walkFailed_whileStarting_isAFailedStart_saidAndCountedAsOne() {
        var machine = Self.preparing()
        #expect(
            machine.preparationEnded(failure: "cannot start: EPERM", at: Self.now) == [
                .noteStartFailure("cannot start: EPERM"), .restart(after: .milliseconds(100)),
            ])
        #expect(machine.state == .backoff)
        #expect(machine.exitReason == .startFailed)
        #expect(machine.lastExit == "cannot start: EPERM")
    }

    @Test func stopDuringTheWalk_signalsNothing_armsNoTimer_andEndsWithTheWalk() {
        var machine = Self.preparing()
        #expect(machine.stopRequested() == [])
        #expect(machine.state == .stopping)
        #expect(machine.preparationEnded(failure: "cannot start: EPERM", at: Self.now) == [.notifyStopWaiters])
        #expect(machine.state == .stopped && !machine.preparing)
        #expect(machine.exitReason == .stop)
    }

    @Test func restartDuringTheWalk_startsAgainOnceItEnded() {
        var machine = Self.preparing()
        _ = machine.restartRequested()
        #expect(machine.preparationEnded(failure: nil, at: Self.now) == [.notifyStopWaiters])
        #expect(machine.restartDue() == [.checkDependencies])
    }

    @Test func stopOfAStartingProcess_notWaitingForAWalk_signalsIt() {
        var machine = Self.preparing()
        _ = machine.preparationEnded(failure: nil, at: Self.now)
        _ = machine.spawned(at: Self.now)
        #expect(machine.stopRequested() == [.stopHealthChecks, .sendStopSignal, .armTimer(.stop)])
    }

    @Test(arguments: ServiceStateMachine.State.all)
    func walkEnd_withNoWalkBegun_changesNothing(_ state: ServiceStateMachine.State) {
        var machine = ServiceStateMachine(
            state: state, wanted: true, restart: .always, backoff: Self.backoff, budget: RestartBudget(),
            notifiesReady: true)
        let before = machine
        #expect(machine.preparationEnded(failure: nil, at: Self.now) == [])
        #expect(machine == before)
    }

    @Test(arguments: ServiceStateMachine.State.all.filter { $0 != .starting })
    func walkBegun_outsideAStart_isNotRecorded(_ state: ServiceStateMachine.State) {
        var machine = ServiceStateMachine(
            state: state, wanted: true, restart: .always, backoff: Self.backoff, budget: RestartBudget(),
            notifiesReady: true)
        #expect(machine.preparationBegun(.foldersGiven) == [])
        #expect(!machine.preparing)
    }

    /// The work a start's spawn waited for, as the core records it: once ended well it is not
    /// begun again for that start (a replica that held no copy leaves no store to find), a failed
    /// one is, and the next start begins each again.
    @Test(arguments: [ServiceStateMachine.Preparation.foldersGiven, .firstStoreRestored])
    func workThatEndedWell_isNotBegunAgain_untilTheNextStart(_ work: ServiceStateMachine.Preparation) {
        var machine = Self.preparing()
        _ = machine.preparationEnded(failure: nil, at: Self.now)
        #expect(machine.preparationBegun(work) == [])
        #expect(machine.preparing == (work != .foldersGiven))
        #expect(machine.preparationEnded(failure: nil, at: Self.now) == (work == .foldersGiven ? [] : [.spawn]))
        #expect(machine.prepared == [.foldersGiven, work])
        #expect(machine.preparationBegun(work) == [] && !machine.preparing)
        _ = machine.spawned(at: Self.now)
        _ = machine.exited(.init(success: false), at: Self.now)
        #expect(machine.backoffElapsed() == [.checkDependencies])
        #expect(machine.dependenciesChecked(missing: []) == [.spawn])
        #expect(machine.prepared.isEmpty)
        #expect(machine.preparationBegun(work) == [] && machine.preparing)
    }

    @Test func workThatFailed_isNotRecordedAsDone() {
        var machine = Self.preparing()
        _ = machine.preparationEnded(failure: "cannot start: EPERM", at: Self.now)
        #expect(machine.prepared.isEmpty)
    }
}
