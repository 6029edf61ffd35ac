import VerticalsServiceKit

extension StoreError: StartFailure {
    /// What `--check` says instead of failing: there is no store yet (the check never creates
    /// one; the daemon does at its first start), or the running daemon holds it (it opened and
    /// migrated it; the check must neither migrate a store in use nor fail because the daemon
    /// runs). Anything else is a failure.
    public func checkAnswer(service: String, stateDirectory: String) -> String? {
        if code == .missing {
            return "svc-\(service) --check: environment valid; no store in \(stateDirectory) yet: the daemon "
                + "creates it at its first start, the check does not\n"
        }
        if code == .held {
            let holder = holderPID.map { "running pid \($0)" } ?? "a running process"
            return "svc-\(service) --check: environment valid; the store in \(stateDirectory) is held by \(holder), "
                + "which opened and migrated it: not opened by the check\n"
        }
        return nil
    }
}
