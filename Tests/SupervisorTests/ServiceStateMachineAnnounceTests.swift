import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// What an event says as it moves the service (``ServiceStateMachine/handle(_:)``): the state to
/// `status`'s followers when the wire's changes (a spawn's `starting` before it runs), or a
/// waiting service's list does, unless a promotion says it itself; the state to the replica
/// whenever it changes; before the rest.
@Suite struct ServiceStateMachineAnnounceTests {
    typealias Machine = ServiceStateMachine
    static let now = ContinuousClock.now
    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))

    static func machine(in state: Machine.State, wanted: Bool = true) -> Machine {
        Machine(
            state: state, wanted: wanted, restart: .always, backoff: backoff, budget: RestartBudget(),
            notifiesReady: true)
    }

    @Test func anEventThatMovesNothing_saysNothing() {
        var machine = Self.machine(in: .ready)
        #expect(machine.handle { $0.watchdogPinged() } == [.armWatchdog])
        #expect(machine.handle { $0.dependencyReady() } == [])
    }

    @Test func aNewWireState_isSaidToFollowersAndTheReplica_beforeTheRest() {
        var machine = Self.machine(in: .starting)
        let ready = machine.ready(at: Self.now)
        var again = Self.machine(in: .starting)
        #expect(again.handle { $0.ready(at: Self.now) } == [.announceState, .tellReplica(entered: .ready)] + ready)
    }

    @Test func aSpawn_saysStartingBeforeItRuns_andItsProcessSaysNothingMore() {
        var machine = Self.machine(in: .waiting)
        #expect(
            machine.handle { $0.dependenciesChecked(missing: []) } == [
                .announceState, .tellReplica(entered: .starting), .spawn,
            ])
        // The spawn waits for its folders' walk: followers already heard starting.
        #expect(machine.handle { $0.preparationBegun(.foldersGiven) } == [])
        #expect(machine.handle { $0.preparationEnded(failure: nil, at: Self.now) } == [.spawn])
        #expect(machine.handle { $0.spawned(at: Self.now) } == [.armTimer(.readiness)])
    }

    /// Every state × event of the machine's table: whatever moves the wire's state says it first,
    /// a spawn's `starting` too; only a promotion leaves it to its own action. An announce
    /// dropped again (a spawn's, while it waits for work off the loop) fails a row here.
    @Test(
        "Given a state, when an event moves the wire's state, then followers hear it first",
        arguments: ServiceStateMachineTests.pairs)
    func everyMoveOfTheWireState_isSaidFirst(_ pair: ServiceStateMachineTests.Pair) {
        var machine = ServiceStateMachineTests.machine(in: pair.state)
        let before = machine.state.wire
        let actions = machine.handle { pair.event.send(to: &$0) }
        let moved = machine.state.wire != before
        if actions.contains(.promoteUpgrade) {
            #expect(!actions.contains(.announceState))
        } else if moved || actions.contains(.spawn) {
            #expect(actions.first == .announceState, "\(machine.state): \(actions)")
            #expect(actions.filter { $0 == .announceState }.count == 1)
        } else if machine.state != .waiting {
            #expect(!actions.contains(.announceState), "\(machine.state): \(actions)")
        }
    }

    @Test func aPromotion_saysItsStateItself() {
        var machine = Self.machine(in: .ready)
        let processes = Machine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")
        #expect(
            machine.handle { $0.upgradeBegun(processes, at: Self.now) } == [
                .tellReplica(entered: .upgrading(.preparing)), .armUpgradeReadyTimeout,
            ])
        #expect(
            machine.handle { $0.exited(.init(success: true), at: Self.now) } == [
                .tellReplica(entered: .upgrading(.finishing)), .noteOldProcessLeftFirst, .promoteUpgrade,
                .armUpgradeReadyTimeout,
            ])
    }

    @Test func aStateThatLooksTheSameOutside_isToldOnlyToTheReplica() {
        var machine = Self.machine(in: .stopped, wanted: false)
        #expect(machine.handle { $0.restoreBegun() } == [.tellReplica(entered: .restoring(.stopped))])
    }

    @Test func aWaitingService_saysAgainOnlyWhenWhatItWaitsForChanges() {
        var machine = Self.machine(in: .backoff)
        #expect(
            machine.handle { $0.dependenciesChecked(missing: ["db"]) } == [
                .announceState, .tellReplica(entered: .waiting), .wait(for: ["db"]),
            ])
        #expect(machine.handle { $0.dependenciesChecked(missing: ["db"]) } == [.wait(for: ["db"])])
        #expect(
            machine.handle { $0.dependenciesChecked(missing: ["db", "cache"]) } == [
                .announceState, .wait(for: ["db", "cache"]),
            ])
    }
}
