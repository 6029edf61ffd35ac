import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// Commands that race the process they are about: what the simulator found, one test each,
/// beside the seed that found it (``SupervisorSimulationTests``).
@Suite struct ServiceStateMachineRaceTests {
    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))

    static func machine(_ state: ServiceStateMachine.State) -> ServiceStateMachine {
        ServiceStateMachine(
            state: state, wanted: true, restart: .always, backoff: backoff, budget: RestartBudget(),
            notifiesReady: true)
    }

    @Test func restartDue_afterAShutdownBegan_startsNothing() {
        var machine = Self.machine(.ready)
        #expect(machine.restartRequested() == [.stopHealthChecks, .sendStopSignal, .armTimer(.stop)])
        _ = machine.shutdownBegun()
        _ = machine.stopRequested()
        _ = machine.exited(.init(success: true), at: .now)
        #expect(machine.restartDue() == [])
        #expect(machine.state == .stopped)
        #expect(!machine.wanted)
    }

    @Test func startRequested_afterAShutdownBegan_startsNothing() {
        var machine = Self.machine(.stopping)
        _ = machine.shutdownBegun()
        #expect(machine.startRequested(fresh: true) == [])
        #expect(machine.exited(.init(success: true), at: .now) == [.notifyStopWaiters])
        #expect(machine.state == .stopped)
    }

    @Test func restartDue_whenAStopWasAskedAfterTheRestart_startsNothing() {
        var machine = Self.machine(.ready)
        _ = machine.restartRequested()
        _ = machine.stopRequested()
        _ = machine.exited(.init(success: true), at: .now)
        #expect(machine.restartDue() == [])
        #expect(machine.state == .stopped)
    }

    @Test func restartDue_withNothingAskedSince_startsItFresh() {
        var machine = Self.machine(.ready)
        _ = machine.restartRequested()
        _ = machine.exited(.init(success: true), at: .now)
        #expect(machine.restartDue() == [.checkDependencies])
        #expect(machine.wanted)
        #expect(machine.restartDue() == [])
    }

    @Test func refusalOfUpgrade_whileTheProcessIsKilledForAFailure_isNotReady() {
        var machine = Self.machine(.ready)
        #expect(machine.refusal(of: .upgrade) == nil)
        _ = machine.watchdogMissed(interval: .seconds(1))
        #expect(machine.refusal(of: .upgrade) == .notReady)
    }
}

extension ServiceStateMachineRaceTests {
    @Test(arguments: [ServiceStateMachine.UpgradeStage.preparing, .finishing])
    func upgradeProcessReady_afterItsDeadlineKilledIt_isTooLate(_ stage: ServiceStateMachine.UpgradeStage) {
        var machine = Self.machine(.upgrading(stage))
        let kill = ServiceStateMachine.UpgradeKill.deadline(afterHandOver: stage == .finishing, timeout: .seconds(5))
        #expect(machine.upgradeReadyTimeoutElapsed(after: .seconds(5)) == [.killNewProcess(reason: kill)])
        #expect(machine.upgradeReadyTimeoutElapsed(after: .seconds(5)) == []) // killed once
        #expect(machine.upgradeProcessReady(at: .now) == [])
        #expect(machine.upgradeProcessWaitsForStore(at: .now) == [])
        #expect(machine.state == .upgrading(stage))
    }
}

extension ServiceStateMachineRaceTests {
    @Test func exited_whileStoppingWithAStartAskedMeanwhile_startsBeforeAnsweringTheWaiters() {
        var machine = Self.machine(.ready)
        _ = machine.restartRequested()
        _ = machine.startRequested(fresh: true)
        #expect(machine.exited(.init(success: true), at: .now) == [.checkDependencies, .notifyStopWaiters])
        #expect(machine.dependenciesChecked(missing: []) == [.spawn])
        #expect(machine.restartDue() == [])
        #expect(machine.state == .starting)
    }
}
