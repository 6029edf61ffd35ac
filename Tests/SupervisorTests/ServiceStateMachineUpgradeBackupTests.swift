import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// The store's copy an upgrade's new build took is the core's record: its rollback puts back the
/// one of its own upgrade, and none that came before or after it.
@Suite struct ServiceStateMachineUpgradeBackupTests {
    static let processes = ServiceStateMachine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")

    /// A ready service whose upgrade has begun.
    static func upgrading() -> ServiceStateMachine {
        var machine = ServiceStateMachine(
            state: .ready, wanted: true, restart: .always,
            backoff: Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10)),
            budget: RestartBudget(), notifiesReady: true)
        _ = machine.upgradeBegun(processes, at: .now)
        return machine
    }

    @Test func rollBack_afterTheNewBuildBackedTheStoreUp_putsThatCopyBack() {
        var machine = Self.upgrading()
        _ = machine.exited(.init(success: true), at: .now) // the old one left: the new one is promoted
        #expect(machine.upgradeProcessBackedUp(to: "catalog.before-upgrade.sqlite") == [])
        #expect(
            machine.exited(.init(success: false), at: .now) == [
                .rollBackUpgrade(backup: "catalog.before-upgrade.sqlite")
            ])
    }

    @Test func rollBack_withoutABackup_putsNothingBack() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: .now)
        _ = machine.upgradeProcessFailed(reason: "exited with status 1")
        #expect(machine.exited(.init(success: true), at: .now) == [.rollBackUpgrade(backup: nil)])
    }

    @Test func backup_saidOutsideAnUpgrade_isNotRecorded() {
        var machine = ServiceStateMachine(
            state: .ready, wanted: true, restart: .always,
            backoff: Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10)),
            budget: RestartBudget(), notifiesReady: true)
        _ = machine.upgradeProcessBackedUp(to: "stale.sqlite")
        #expect(machine.upgrade?.backup == nil)
    }

    @Test func nextUpgrade_forgetsTheLastOnesBackup() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessBackedUp(to: "first.sqlite")
        _ = machine.upgradeProcessFailed(reason: "exited with status 1") // before the hand-over: ready again
        _ = machine.upgradeBegun(Self.processes, at: .now)
        #expect(machine.upgrade?.backup == nil)
    }
}
