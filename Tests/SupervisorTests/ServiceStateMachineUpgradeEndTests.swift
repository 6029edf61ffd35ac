import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// How an upgrade ended is the core's one record of the last upgrade, written as it leaves
/// `.upgrading`: why its new process failed (what its answer and rollback say), or that a stop
/// abandoned it and whether its caller was answered; the old process's end is its drain time.
@Suite struct ServiceStateMachineUpgradeEndTests {
    /// A ready service whose upgrade has begun, and its processes.
    typealias Given = ServiceStateMachineUpgradeBackupTests

    static let start = ContinuousClock.now

    @Test func newProcessFailedBeforeTheHandOver_recordsWhy() {
        var machine = Given.upgrading()
        _ = machine.upgradeProcessFailed(reason: "exited with status 1")
        #expect(machine.lastUpgrade == .failed(reason: "exited with status 1"))
        #expect(machine.lastUpgrade?.failure == "exited with status 1")
    }

    @Test func newProcessFailedDuringTheHandOver_recordsWhy_asTheOldOneLeaves() {
        var machine = Given.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: Self.start)
        _ = machine.upgradeProcessFailed(reason: "killed by signal 11 (SIGSEGV)")
        #expect(machine.lastUpgrade == nil) // it runs on until the old one is gone
        _ = machine.exited(.init(success: true, reason: "exited with status 0"), at: Self.start)
        #expect(machine.lastUpgrade == .failed(reason: "killed by signal 11 (SIGSEGV)"))
    }

    @Test func promotedNewProcessEnded_recordsItsExitsReason() {
        var machine = Given.upgrading()
        _ = machine.exited(.init(success: true), at: Self.start) // the old one left first
        #expect(machine.lastUpgrade == nil)
        let exit = ServiceStateMachine.Exit(success: false, reason: "not ready within 5 s of the hand-over")
        #expect(machine.exited(exit, at: Self.start) == [.rollBackUpgrade(backup: nil)])
        #expect(machine.lastUpgrade?.failure == "not ready within 5 s of the hand-over")
    }

    @Test func oldProcessGone_isRecordedInTheCase_forTheDrainTime() {
        var machine = Given.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: Self.start)
        #expect(machine.upgrade?.oldExitedAt == nil)
        _ = machine.exited(.init(success: true), at: Self.start + .milliseconds(300))
        #expect(machine.upgrade?.handOverAt == Self.start)
        #expect(machine.upgrade?.oldExitedAt == Self.start + .milliseconds(300))
    }

    @Test func abandoned_isRecorded_thenAnsweredOnce() {
        var machine = Given.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: Self.start)
        _ = machine.stopRequested()
        #expect(machine.lastUpgrade == .abandoned(afterHandOver: true, answered: false))
        _ = machine.exited(.init(success: true), at: Self.start)
        #expect(machine.lastUpgrade == .abandoned(afterHandOver: true, answered: true))
        #expect(machine.lastUpgrade?.failure == nil)
    }

    @Test func nextUpgrade_forgetsHowTheLastOneEnded() {
        var machine = Given.upgrading()
        _ = machine.upgradeProcessFailed(reason: "exited with status 1")
        _ = machine.upgradeBegun(Given.processes, at: .now)
        #expect(machine.lastUpgrade == nil)
    }
}
