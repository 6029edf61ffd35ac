import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// An upgrade's facts live in its case: they are there while it runs, each as its events set
/// it, and gone once it has ended, so nothing beside the state can disagree with it.
@Suite struct ServiceStateMachineUpgradeCaseTests {
    static let processes = ServiceStateMachine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")
    static let start = ContinuousClock.now

    /// A ready service whose upgrade has begun.
    static func upgrading() -> ServiceStateMachine {
        var machine = ServiceStateMachine(
            state: .ready, wanted: true, restart: .always,
            backoff: Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10)),
            budget: RestartBudget(), notifiesReady: true)
        _ = machine.statusSaid("serving")
        _ = machine.upgradeBegun(processes, at: .now)
        return machine
    }

    @Test func upgradeBegun_carriesItsProcessesAndTheStatusBefore_andNothingElseYet() throws {
        let upgrade = try #require(Self.upgrading().upgrade)
        #expect(upgrade.stage == .preparing)
        #expect(upgrade.processes == Self.processes)
        #expect(upgrade.statusBefore == .said("serving"))
        #expect(upgrade.readyAt == nil && upgrade.handOverAt == nil && upgrade.backup == nil)
        #expect(upgrade.kill == nil)
    }

    @Test func eventsWhileItRuns_setTheirFactInTheCase() throws {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessBackedUp(to: "catalog.before-upgrade.sqlite")
        _ = machine.upgradeProcessWaitsForStore(at: Self.start)
        _ = machine.upgradeProcessReady(at: Self.start + .seconds(1))
        let upgrade = try #require(machine.upgrade)
        #expect(upgrade.stage == .handingOver)
        #expect(upgrade.handOverAt == Self.start)
        #expect(upgrade.readyAt == Self.start + .seconds(1))
        #expect(upgrade.backup == "catalog.before-upgrade.sqlite")
        #expect(machine.phase == .upgrading(upgrade))
    }

    @Test func aDoneUpgrade_leavesNoFactBehind() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: Self.start)
        _ = machine.exited(.init(success: true), at: Self.start) // the old one drained: the new one is promoted
        #expect(machine.upgradeProcessReady(at: Self.start) == [.completeUpgrade])
        _ = machine.ready(at: Self.start)
        #expect(machine.state == .ready)
        #expect(machine.upgrade == nil)
    }

    @Test func anUpgradeFailedBeforeTheHandOver_leavesNoFactBehind() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessBackedUp(to: "catalog.before-upgrade.sqlite")
        _ = machine.upgradeReadyTimeoutElapsed(after: .seconds(5))
        #expect(machine.upgrade?.kill == .deadline(afterHandOver: false, timeout: .seconds(5)))
        let reason = "neither waited for the store nor was ready within 5 s"
        #expect(
            machine.upgradeProcessFailed(words: "killed by signal 9 (SIGKILL)") == [
                .answerUpgrade(.failedBeforeHandOver(reason: reason))
            ])
        #expect(machine.state == .ready)
        #expect(machine.upgrade == nil)
    }
}
