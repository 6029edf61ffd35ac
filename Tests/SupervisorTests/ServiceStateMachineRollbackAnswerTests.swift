import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// A rolled-back upgrade is answered by the core, exactly once, by the state the previous
/// executable's start reaches: every way a rollback goes on, fed as the engine feeds it
/// (``ServiceStateMachine/handle(_:)``), gives its caller one answer, after the state is said.
@Suite struct ServiceStateMachineRollbackAnswerTests {
    typealias Given = ServiceStateMachineUpgradeBackupTests

    /// What the engine feeds while the rollback goes on (and after it was answered).
    enum Step: Sendable, CustomStringConvertible {
        case restoreEnded(saying: String), checked(missing: [String]), spawned, ready, crashed
        case stop, stopped, start

        var description: String {
            switch self {
            case .restoreEnded: "restoreEnded"
            case .checked(let missing): "checked(\(missing))"
            case .spawned: "spawned"
            case .ready: "ready"
            case .crashed: "crashed"
            case .stop: "stop"
            case .stopped: "stopped"
            case .start: "start"
            }
        }

        func feed(_ machine: inout ServiceStateMachine) -> [ServiceStateMachine.Action] {
            let now = ContinuousClock.now
            return machine.handle { machine in
                switch self {
                case .restoreEnded(let words): return machine.restoreEnded(saying: words)
                case .checked(let missing): return machine.dependenciesChecked(missing: missing)
                case .spawned: return machine.spawned(at: now)
                case .ready: return machine.ready(at: now)
                case .crashed: return machine.exited(.init(success: false, words: "exited with status 2"), at: now)
                case .stop: return machine.stopRequested()
                case .stopped: return machine.exited(.init(success: true), at: now)
                case .start: return machine.startRequested(fresh: true)
                }
            }
        }
    }

    static let reason = "exited with status 1"
    static let putBack = "the store backup catalog.before-upgrade.sqlite was put back"

    static let backup = "catalog.before-upgrade.sqlite"

    /// How the rollback goes on; with `backup`, the new build backed the store up, and the
    /// rollback begins by restoring it.
    static let table: [(steps: [Step], answer: ServiceStateMachine.UpgradeOutcome, backup: String?)] = [
        // The previous executable serves again; a later stop and start answer nothing more.
        (
            [
                .checked(missing: []), .spawned, .ready, .stop, .stopped, .start, .checked(missing: []), .spawned,
                .ready,
            ],
            .rolledBack(reason: reason, restored: nil, serves: true), nil
        ),
        // It crashed too and backs off: answered as it enters backoff, not again at its restart.
        (
            [.checked(missing: []), .spawned, .crashed, .checked(missing: []), .spawned, .ready],
            .rolledBack(reason: reason, restored: nil, serves: false), nil
        ),
        // Stopped while it waited for a dependency.
        ([.checked(missing: ["db"]), .stop, .start], .rolledBack(reason: reason, restored: nil, serves: false), nil),
        // The backup put back first, then it serves: the answer says both.
        (
            [.restoreEnded(saying: putBack), .checked(missing: []), .spawned, .ready],
            .rolledBack(reason: reason, restored: putBack, serves: true), backup
        ),
        // Stopped during the restore: answered once the restore has ended, with its words.
        (
            [.stop, .restoreEnded(saying: putBack), .checked(missing: []), .start],
            .rolledBack(reason: reason, restored: putBack, serves: false), backup
        ),
    ]

    @Test(arguments: table.indices)
    func rollback_isAnsweredExactlyOnce_afterItsStateIsSaid(_ row: Int) {
        let (steps, expected, backup) = Self.table[row]
        var machine = Given.upgrading()
        _ = machine.handle { $0.exited(.init(success: true), at: .now) } // the old one left: promoted
        if let backup { _ = machine.handle { $0.upgradeProcessBackedUp(to: backup) } }
        let failed = machine.handle { $0.exited(.init(success: false, words: Self.reason), at: .now) }
        #expect(failed.contains(.rollBackUpgrade(backup: backup)))
        #expect(machine.isRestoring == (backup != nil))
        #expect(!failed.contains { if case .answerUpgrade = $0 { true } else { false } })
        var answers: [ServiceStateMachine.UpgradeOutcome] = []
        for step in steps {
            let actions = step.feed(&machine)
            for (index, action) in actions.enumerated() {
                guard case .answerUpgrade(let outcome) = action else { continue }
                answers.append(outcome)
                // Followers hear the state it reached (when it changed) before the caller hears the answer.
                if let said = actions.firstIndex(of: .announceState) { #expect(said < index, "at \(step)") }
            }
        }
        #expect(answers == [expected], "steps \(steps)")
    }
}
