import VerticalsContract

// The status text a service's state says, decided by the core from the state it left and the
// one it entered, so that `status` follows the machine and the shell only shows it.
extension ServiceStateMachine {
    /// The status text entering the current state from `before` sets for the service `name`;
    /// nil when it leaves the text as it was (the process's own `STATUS=`, an upgrade's words).
    /// A service that keeps waiting says again what for, as the list changes.
    func statusText(enteredFrom before: ServiceStateMachine, service name: String) -> String? {
        if state == .waiting, !before.isUpgrading, !before.isRestoring,
            before.state != .waiting || before.awaited != awaited
        {
            return "waiting for \(awaited.joined(separator: ", "))"
        }
        guard before.state != state else { return nil }
        switch state {
        case .stopped, .starting:
            return ""
        case .idle:
            return "starts at the first connection"
        case .stopping where before.state.wire == .starting || before.state.wire == .ready:
            return "stopping"
        case .backoff:
            return "restarting in \(ServiceUnit.text(backoffDelay))"
        case .failed where !before.isRestoring:
            return gaveUp.map { givingUpText($0, service: name) }
        default:
            return nil
        }
    }

    /// Why a service stays down, with what its operator does next.
    private func givingUpText(_ why: GiveUp, service name: String) -> String {
        switch why {
        case .restartCannotHelp:
            "not restarted: exit status \(DaemonExitStatus.restartCannotHelp) says a restart cannot help; "
                + "fix the cause, then `svc-supervisor start \(name)`"
        case .policy:
            "not restarted (restart = \(restart.rawValue))"
        case .budgetSpent(let count):
            "restarted \(count) times within \(ServiceUnit.text(ledger.budget.window)); "
                + "stays down until `svc-supervisor start \(name)`"
        }
    }
}
