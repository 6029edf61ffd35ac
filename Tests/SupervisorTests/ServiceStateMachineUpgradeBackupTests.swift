import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// The store's copy an upgrade's new build took is the core's record: its rollback puts back the
/// one of its own upgrade, and none that came before or after it.
@Suite struct ServiceStateMachineUpgradeBackupTests {
    static let processes = ServiceStateMachine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")

    /// A ready service.
    static func ready() -> ServiceStateMachine {
        ServiceStateMachine(
            state: .ready, wanted: true, restart: .always,
            backoff: Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10)),
            budget: RestartBudget(), notifiesReady: true)
    }

    /// A ready service whose upgrade has begun.
    static func upgrading() -> ServiceStateMachine {
        var machine = ready()
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

    /// The previous executable starts as every start does, by the machine's `checkDependencies`:
    /// once its backup is back (or could not be put back), and not after a stop meanwhile.
    @Test func rollBack_startsThePreviousExecutable_onceItsBackupIsBack() {
        var machine = Self.upgrading()
        _ = machine.exited(.init(success: true), at: .now) // the old one left: the new one is promoted
        _ = machine.upgradeProcessBackedUp(to: "catalog.before-upgrade.sqlite")
        _ = machine.exited(.init(success: false), at: .now)
        #expect(machine.state == .restoring(.rollback) && machine.status == .rollingBack)
        var stopped = machine
        #expect(machine.restoreEnded(saying: "the store backup could not be put back: EIO") == [.checkDependencies])
        #expect(machine.state == .waiting)
        _ = stopped.stopRequested()
        #expect(stopped.restoreEnded(saying: "the store backup was put back") == [])
        #expect(stopped.state == .stopped)
    }

    @Test func rollBack_withoutABackup_putsNothingBack() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: .now)
        _ = machine.upgradeProcessFailed(words: "exited with status 1")
        #expect(machine.exited(.init(success: true), at: .now) == [.rollBackUpgrade(backup: nil), .checkDependencies])
    }

    /// The states no upgrade runs in.
    static let notUpgrading = ServiceStateMachine.State.all.filter {
        if case .upgrading = $0 { return false }
        return true
    }

    @Test("A backup said outside an upgrade changes nothing in the machine", arguments: notUpgrading)
    func backup_saidOutsideAnUpgrade_isNotRecorded(_ state: ServiceStateMachine.State) {
        let before = ServiceStateMachineTests.machine(in: state)
        var machine = before
        #expect(machine.upgradeProcessBackedUp(to: "stale.sqlite") == [])
        #expect(machine == before)
    }

    @Test func backup_saidBeforeAnUpgrade_isNotWhatItsRollbackPutsBack() {
        var machine = Self.ready()
        _ = machine.upgradeProcessBackedUp(to: "stale.sqlite")
        _ = machine.upgradeBegun(Self.processes, at: .now)
        _ = machine.exited(.init(success: true), at: .now) // the old one left: the new one is promoted
        #expect(machine.exited(.init(success: false), at: .now) == [.rollBackUpgrade(backup: nil), .checkDependencies])
    }

    @Test func nextUpgrade_forgetsTheLastOnesBackup() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessBackedUp(to: "first.sqlite")
        _ = machine.upgradeProcessFailed(words: "exited with status 1") // before the hand-over: ready again
        _ = machine.upgradeBegun(Self.processes, at: .now)
        #expect(machine.upgrade?.backup == nil)
    }
}
