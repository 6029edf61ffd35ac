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
        _ = machine.upgradeProcessFailed(words: "exited with status 1")
        #expect(machine.lastUpgrade == .failed(reason: "exited with status 1"))
        #expect(machine.lastUpgrade?.failure == "exited with status 1")
    }

    @Test func newProcessFailedDuringTheHandOver_recordsWhy_asTheOldOneLeaves() {
        var machine = Given.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: Self.start)
        _ = machine.upgradeProcessFailed(words: "killed by signal 11 (SIGSEGV)")
        #expect(machine.lastUpgrade == nil) // it runs on until the old one is gone
        _ = machine.exited(.init(success: true, words: "exited with status 0"), at: Self.start)
        #expect(
            machine.lastUpgrade == .rollingBack(reason: "killed by signal 11 (SIGSEGV)", restored: nil, answered: false)
        )
    }

    @Test func promotedNewProcessEnded_recordsItsExitsWords() {
        var machine = Given.upgrading()
        _ = machine.exited(.init(success: true), at: Self.start) // the old one left first
        #expect(machine.lastUpgrade == nil)
        let exit = ServiceStateMachine.Exit(success: false, words: "killed by signal 11 (SIGSEGV)")
        #expect(machine.exited(exit, at: Self.start) == [.rollBackUpgrade(backup: nil), .checkDependencies])
        #expect(machine.lastUpgrade?.failure == "killed by signal 11 (SIGSEGV)")
    }

    @Test func promotedNewProcessKilledForItsDeadline_recordsTheKillsWords_notItsSignal() {
        var machine = Given.upgrading()
        _ = machine.exited(.init(success: true), at: Self.start) // the old one left first
        _ = machine.upgradeReadyTimeoutElapsed(after: .seconds(5))
        let exit = ServiceStateMachine.Exit(success: false, words: "killed by signal 9 (SIGKILL)")
        #expect(machine.exited(exit, at: Self.start) == [.rollBackUpgrade(backup: nil), .checkDependencies])
        #expect(machine.lastUpgrade?.failure == "not ready within 5 s of the hand-over")
        #expect(machine.lastExit == "killed by signal 9 (SIGKILL)") // status's last exit: its own
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
        _ = machine.upgradeProcessFailed(words: "exited with status 1")
        _ = machine.upgradeBegun(Given.processes, at: .now)
        #expect(machine.lastUpgrade == nil)
    }

    @Test func promotedNewProcessReady_answersTheUpgradeOnce_withItsRecord() throws {
        var machine = Given.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: Self.start + .milliseconds(100))
        _ = machine.exited(.init(success: true), at: Self.start + .milliseconds(300))
        _ = machine.upgradeProcessReady(at: Self.start + .milliseconds(400))
        let record = try #require(machine.upgrade)
        let answer = try #require(machine.ready(at: Self.start + .milliseconds(400)).last)
        guard case .answerUpgrade(.upgraded(let answered)) = answer else {
            Issue.record("the upgrade's last action is \(answer), not its answer")
            return
        }
        #expect(answered == record)
        #expect(answered.handOverAt == Self.start + .milliseconds(100))
        #expect(answered.oldExitedAt == Self.start + .milliseconds(300))
        #expect(answered.readyAt == Self.start + .milliseconds(400))
        #expect(machine.ready(at: Self.start + .milliseconds(500)) == []) // answered once
    }

    @Test func newProcessFailedBeforeTheHandOver_answersWithItsWords() {
        var machine = Given.upgrading()
        #expect(
            machine.upgradeProcessFailed(words: "exited with status 1: cannot open the store") == [
                .answerUpgrade(.failedBeforeHandOver(reason: "exited with status 1: cannot open the store"))
            ])
        #expect(machine.upgradeProcessFailed(words: "exited with status 1") == []) // answered once
    }
}
