import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// An upgrade a stop abandons is answered by the core exactly once, by whichever of its
/// processes ends first that settles it, and says which side of the hand-over it was on.
@Suite struct ServiceStateMachineAbandonedUpgradeTests {
    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))
    static let processes = ServiceStateMachine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")

    /// A ready service whose upgrade has begun (its new process prepares).
    static func preparing() -> ServiceStateMachine {
        var machine = ServiceStateMachine(
            state: .ready, wanted: true, restart: .always, backoff: backoff, budget: RestartBudget(),
            notifiesReady: true)
        _ = machine.upgradeBegun(processes, at: .now)
        return machine
    }

    @Test func stopWhilePreparing_newProcessEndsFirst_answersOnceBeforeTheHandOver() {
        var machine = Self.preparing()
        #expect(machine.stopRequested().first == .abandonUpgrade(killsNewProcess: true))
        #expect(machine.upgradeProcessFailed(words: "killed") == [.answerUpgrade(.abandoned(afterHandOver: false))])
        #expect(machine.exited(.init(success: true), at: .now) == [.notifyStopWaiters])
        #expect(machine.state == .stopped)
    }

    @Test func stopWhilePreparing_oldProcessEndsFirst_answersOnceWithItsExit() {
        var machine = Self.preparing()
        _ = machine.stopRequested()
        #expect(
            machine.exited(.init(success: true), at: .now) == [
                .answerUpgrade(.abandoned(afterHandOver: false)), .notifyStopWaiters,
            ])
        #expect(machine.upgradeProcessFailed(words: "killed") == [])
        #expect(machine.state == .stopped)
    }

    @Test func stopDuringTheHandOver_newProcessEndsFirst_isAnsweredByTheOldOnesExit() {
        var machine = Self.preparing()
        _ = machine.upgradeProcessWaitsForStore(at: .now)
        #expect(machine.stopRequested() == [.abandonUpgrade(killsNewProcess: true)])
        #expect(machine.upgradeProcessFailed(words: "killed") == [])
        #expect(
            machine.exited(.init(success: true), at: .now) == [
                .answerUpgrade(.abandoned(afterHandOver: true)), .notifyStopWaiters,
            ])
    }

    @Test func stopOnceTheNewProcessIsTheServicesOwn_isAnsweredByItsExit() {
        var machine = Self.preparing()
        _ = machine.exited(.init(success: true), at: .now) // the old one left first
        #expect(machine.state == .upgrading(.finishing))
        #expect(machine.stopRequested().first == .abandonUpgrade(killsNewProcess: false))
        #expect(
            machine.exited(.init(success: true), at: .now) == [
                .answerUpgrade(.abandoned(afterHandOver: true)), .notifyStopWaiters,
            ])
    }

    @Test func restartAfterAnAnsweredAbandon_answersNothingMore() {
        var machine = Self.preparing()
        _ = machine.restartRequested()
        _ = machine.exited(.init(success: true), at: .now)
        _ = machine.restartDue()
        _ = machine.dependenciesChecked(missing: [])
        _ = machine.stopRequested()
        #expect(machine.upgradeProcessFailed(words: "killed") == [])
        #expect(machine.exited(.init(success: true), at: .now) == [.notifyStopWaiters])
    }

    @Test func newProcessKilledByTheAbandon_endsInTheAbandonsWords_notItsSignal() {
        var machine = Self.preparing()
        #expect(machine.newProcessEndWords("killed by signal 9 (SIGKILL)") == "killed by signal 9 (SIGKILL)")
        _ = machine.stopRequested()
        #expect(
            machine.newProcessEndWords("killed by signal 9 (SIGKILL)")
                == "killed: the upgrade was abandoned (the service was stopped or restarted meanwhile)")
    }
}
