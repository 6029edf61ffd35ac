import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// What an event says as it moves the service (``ServiceStateMachine/handle(_:)``): the state to
/// `status`'s followers when the wire's changes, or a waiting service's list does, unless a spawn
/// or a promotion says it itself; the state to the replica whenever it changes; before the rest.
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

    @Test func aSpawn_saysItsStateItself_once_butTheReplicaHearsAtOnce() {
        var machine = Self.machine(in: .waiting)
        #expect(
            machine.handle { $0.dependenciesChecked(missing: []) } == [.tellReplica(entered: .starting), .spawn])
    }

    @Test func aPromotion_saysItsStateItself() {
        var machine = Self.machine(in: .ready)
        let processes = Machine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")
        #expect(machine.handle { $0.upgradeBegun(processes, at: Self.now) } == [
            .tellReplica(entered: .upgrading(.preparing)), .armUpgradeReadyTimeout,
        ])
        #expect(machine.handle { $0.exited(.init(success: true), at: Self.now) } == [
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
        #expect(machine.handle { $0.dependenciesChecked(missing: ["db"]) } == [
            .announceState, .tellReplica(entered: .waiting), .wait(for: ["db"]),
        ])
        #expect(machine.handle { $0.dependenciesChecked(missing: ["db"]) } == [.wait(for: ["db"])])
        #expect(machine.handle { $0.dependenciesChecked(missing: ["db", "cache"]) } == [
            .announceState, .wait(for: ["db", "cache"]),
        ])
    }
}
