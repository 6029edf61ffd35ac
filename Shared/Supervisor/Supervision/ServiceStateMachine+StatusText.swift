import VerticalsContract

// The status text of a service: the facts the core holds (``ServiceStateMachine/status``) and
// the words `status` shows for them. The shell only shows them.
extension ServiceStateMachine {
    /// What `status` says beside the state, as the facts its words name (``text(service:)``).
    enum Status: Sendable, Hashable {
        /// Nothing: a process just started, or none runs.
        case none
        /// The service's own process's words (`STATUS=`).
        case said(String)
        /// It said `STOPPING=1`.
        case stoppingOnItsOwn
        /// The dependencies (and `one_for_all` peers) not ready at the last check.
        case waiting(for: [String])
        /// Idle until a caller connects.
        case idle
        /// The supervisor stops it.
        case stopping
        /// It starts again after the backoff.
        case backoff(Duration)
        /// It stays down: why, under the policy and the budget's window it gave up with.
        case gaveUp(GiveUp, restart: RestartPolicy, window: Duration)
        /// An upgrade's new process prepares while the old one serves.
        case upgradePrepares(newPID: Int32)
        /// An upgrade's new process said `STATUS=`.
        case upgradeProcessSays(newPID: Int32, String)
        /// The old process drains; the new one serves already, or waits for the store.
        case upgradeDrains(oldPID: Int32, newPID: Int32, newServes: Bool)
        /// The old process is gone; the new one opens the store.
        case upgradeOpensStore(newPID: Int32)
        /// The new process failed after the hand-over: the previous executable starts again
        /// once the old process is gone.
        case upgradeFailed(UpgradeProcesses, reason: String)
        /// A failed upgrade's rollback runs.
        case rollingBack

        /// The words `status` shows for the service `name`.
        func text(service name: String) -> String {
            switch self {
            case .none: ""
            case .said(let words): words
            case .stoppingOnItsOwn: "stopping on its own"
            case .waiting(let awaited): "waiting for \(awaited.joined(separator: ", "))"
            case .idle: "starts at the first connection"
            case .stopping: "stopping"
            case .backoff(let delay): "restarting in \(ServiceUnit.text(delay))"
            case .gaveUp(let why, let restart, let window): Self.givingUpText(why, restart, window, service: name)
            case .upgradePrepares(let new): "upgrading: new pid \(new) prepares"
            case .upgradeProcessSays(let new, let words): "upgrading: new pid \(new): \(words)"
            case .upgradeDrains(let old, let new, let serves):
                "upgrading: pid \(old) drains; new pid \(new) " + (serves ? "serves" : "waits for the store")
            case .upgradeOpensStore(let new):
                "upgrading: new pid \(new) opens the store; callers wait in the backlog"
            case .upgradeFailed(let processes, let reason):
                "upgrade failed: new pid \(processes.newPID) \(reason); starting \(processes.previousExecutable) "
                    + "again once pid \(processes.oldPID) is gone"
            case .rollingBack: "rolling back the upgrade"
            }
        }

        /// Why a service stays down, with what its operator does next.
        private static func givingUpText(
            _ why: GiveUp, _ restart: RestartPolicy, _ window: Duration, service name: String
        ) -> String {
            switch why {
            case .restartCannotHelp:
                "not restarted: exit status \(DaemonExitStatus.restartCannotHelp) says a restart cannot help; "
                    + "fix the cause, then `svc-supervisor start \(name)`"
            case .policy:
                "not restarted (restart = \(restart.rawValue))"
            case .budgetSpent(let count):
                "restarted \(count) times within \(ServiceUnit.text(window)); "
                    + "stays down until `svc-supervisor start \(name)`"
            }
        }
    }

    /// The old and the new process of an upgrade, as its status names them.
    struct UpgradeProcesses: Sendable, Hashable {
        /// The process that served when the upgrade began.
        var oldPID: Int32
        /// The new process.
        var newPID: Int32
        /// The manifest executable a rollback starts again.
        var previousExecutable: String
    }

    /// The words `status` shows beside the state of the service `name`.
    func statusText(service name: String) -> String {
        status.text(service: name)
    }
}
