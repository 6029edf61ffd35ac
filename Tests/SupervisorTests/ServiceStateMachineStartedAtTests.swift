import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// When the service's own process started is the data of the case that has a process: `status`'s
/// uptime is there while one runs, the one that serves during an upgrade, and gone with the state.
@Suite struct ServiceStateMachineStartedAtTests {
    static let processes = ServiceStateMachineUpgradeCaseTests.processes
    static let start = ContinuousClock.now

    /// A service whose process spawned at ``start`` and became ready a second later.
    static func ready() -> ServiceStateMachine {
        var machine = ServiceStateMachineTests.machine(in: .stopped)
        _ = machine.startRequested(fresh: true)
        _ = machine.dependenciesChecked(missing: [])
        #expect(machine.startedAt == nil) // no process yet
        _ = machine.spawned(at: start)
        _ = machine.ready(at: start + .seconds(1))
        return machine
    }

    @Test func aRunningProcess_keepsItsStart_throughReadyAndItsStop_andLosesItWithItsExit() {
        var machine = Self.ready()
        #expect(machine.phase == .ready(.init(startedAt: Self.start)))
        _ = machine.stopRequested()
        #expect(machine.startedAt == Self.start)
        _ = machine.exited(.init(success: true), at: Self.start + .seconds(2))
        #expect(machine.state == .stopped)
        #expect(machine.startedAt == nil)
    }

    @Test func anUpgrade_countsTheOldProcessUntilThePromotion_thenTheNewOne() {
        var machine = Self.ready()
        let newStart = Self.start + .seconds(5)
        _ = machine.upgradeBegun(Self.processes, at: newStart)
        #expect(machine.startedAt == Self.start)
        _ = machine.upgradeProcessWaitsForStore(at: newStart)
        #expect(machine.startedAt == Self.start) // the old one drains
        _ = machine.exited(.init(success: true), at: newStart + .seconds(1))
        #expect(machine.startedAt == newStart) // promoted
        _ = machine.ready(at: newStart + .seconds(2))
        #expect(machine.phase == .ready(.init(startedAt: newStart)))
    }

    @Test func anUpgradeFailedBeforeTheHandOver_leavesTheOldProcessesStart() {
        var machine = Self.ready()
        _ = machine.upgradeBegun(Self.processes, at: Self.start + .seconds(5))
        _ = machine.upgradeProcessFailed(words: "exited with status 1")
        #expect(machine.phase == .ready(.init(startedAt: Self.start)))
    }

    @Test func aCrash_leavesTheBackoffItsDelay_andNoStart() {
        var machine = Self.ready()
        #expect(
            machine.exited(.init(success: false), at: Self.start + .seconds(2)) == [.restart(after: .milliseconds(100))]
        )
        #expect(machine.phase == .backoff(delay: .milliseconds(100)))
        #expect(machine.startedAt == nil)
    }
}
