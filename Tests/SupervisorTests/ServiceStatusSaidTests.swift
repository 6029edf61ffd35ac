import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// The status text the processes' words and an upgrade's stages set, held by the core: what a
/// process says (`STATUS=`, `STOPPING=1`) is an event fed to it, and each stage of an upgrade
/// names its processes.
@Suite struct ServiceStatusSaidTests {
    typealias Machine = ServiceStateMachine

    static let now = ContinuousClock.now
    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))
    static let upgrade = Machine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog-1")

    static func machine(_ state: Machine.State) -> Machine {
        Machine(
            state: state, wanted: true, restart: .always, backoff: backoff, budget: RestartBudget(),
            notifiesReady: true)
    }

    static func text(_ machine: Machine) -> String { machine.statusText(service: "catalog") }

    /// A ready machine whose upgrade (``upgrade``) has begun.
    static func upgrading() -> Machine {
        var machine = machine(.ready)
        _ = machine.upgradeBegun(upgrade, at: .now)
        return machine
    }

    @Test func aProcessesWords_areShownWhileItRuns_andANewStartClearsThem() {
        var machine = Self.machine(.starting)
        _ = machine.statusSaid("warming up")
        #expect(Self.text(machine) == "warming up")
        _ = machine.ready(at: Self.now)
        #expect(Self.text(machine) == "warming up")
        _ = machine.exited(.init(success: false), at: Self.now)
        #expect(Self.text(machine) == "restarting in 100 ms")
        _ = machine.statusSaid("too late")
        #expect(Self.text(machine) == "restarting in 100 ms")
        _ = machine.backoffElapsed()
        _ = machine.dependenciesChecked(missing: [])
        #expect(machine.state == .starting)
        #expect(Self.text(machine) == "")
    }

    @Test func stoppingOnItsOwn_saysSo() {
        var machine = Self.machine(.ready)
        _ = machine.stoppingOnItsOwn()
        #expect(Self.text(machine) == "stopping on its own")
    }

    @Test func anUpgradeFailedBeforeTheHandOver_saysAgainWhatTheOldProcessSaid() {
        var machine = Self.machine(.ready)
        _ = machine.statusSaid("serving 5 operations")
        _ = machine.upgradeBegun(Self.upgrade, at: .now)
        #expect(Self.text(machine) == "upgrading: new pid 42 prepares")
        _ = machine.statusSaid("the old process's words wait")
        #expect(Self.text(machine) == "upgrading: new pid 42 prepares")
        _ = machine.upgradeProcessSaid("migrating")
        #expect(Self.text(machine) == "upgrading: new pid 42: migrating")
        _ = machine.upgradeProcessFailed(words: "exited with status 1")
        #expect(machine.state == .ready)
        #expect(Self.text(machine) == "serving 5 operations")
    }

    @Test func anUpgradeThatWaitsForTheStore_namesItsProcessesAtEachStage_andEndsSayingNothing() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessWaitsForStore(at: Self.now)
        #expect(Self.text(machine) == "upgrading: pid 41 drains; new pid 42 waits for the store")
        _ = machine.exited(.init(success: true), at: Self.now)
        #expect(Self.text(machine) == "upgrading: new pid 42 opens the store; callers wait in the backlog")
        #expect(machine.upgradeProcessReady(at: Self.now) == [.completeUpgrade])
        _ = machine.ready(at: Self.now)
        #expect(Self.text(machine) == "")
    }

    @Test func anUpgradeFailedAfterTheHandOver_saysWhatStartsAgain_thenThatItRollsBack() {
        var machine = Self.upgrading()
        _ = machine.upgradeProcessReady(at: Self.now)
        #expect(Self.text(machine) == "upgrading: pid 41 drains; new pid 42 serves")
        _ = machine.upgradeProcessFailed(words: "exited with status 1")
        #expect(
            Self.text(machine)
                == "upgrade failed: new pid 42 exited with status 1; starting catalog-1 again once pid 41 is gone")
        _ = machine.exited(.init(success: true), at: Self.now)
        #expect(machine.state == .waiting)
        #expect(Self.text(machine) == "rolling back the upgrade")
        _ = machine.dependenciesChecked(missing: ["db"])
        #expect(Self.text(machine) == "waiting for db")
    }
}
