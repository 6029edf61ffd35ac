import VerticalsContract

extension ServiceRuntime {
    /// Builds the vertical's World with `make` (which opens its store), or says how the daemon
    /// ends instead: ``DaemonMain`` calls it, so each daemon reports a World it cannot build the same way.
    ///
    /// - A failure ends it as ``DaemonExit/cannotStart(_:restartCannotHelp:)``: `svc-<name>: cannot
    ///   start: <reason>` on standard error, status `DaemonExitStatus.startFailed` (70), or
    ///   `DaemonExitStatus.restartCannotHelp` (78) when starting again would fail the same way: the
    ///   error is ``RestartCannotHelp``, or a ``StartFailure`` that says so (VerticalsStorage's
    ///   `StoreError` for a store another process serves, another vertical's store, one a newer
    ///   build migrated, or no SQLite store at all). Supervisors do not restart it then. The
    ///   supervisor keeps that line as the reason of the exit (`svc-supervisor status`).
    /// - Under `--check` (``checkOnly``), a ``StartFailure`` with a ``StartFailure/checkAnswer(service:stateDirectory:)``
    ///   is no failure: the answer is printed and the check ends with status 0 (VerticalsStorage:
    ///   no store yet, since the check never creates one; or a store the running daemon holds,
    ///   which the check must neither migrate nor fail on).
    func makeWorld<World>(_ make: () throws -> World) throws(DaemonExit) -> World {
        do {
            return try make()
        } catch {
            let failure = error as? any StartFailure
            if checkOnly, let answer = failure?.checkAnswer(service: name, stateDirectory: stateDirectory) {
                throw .answered(answer)
            }
            let final = failure?.restartCannotHelp == true || error is any RestartCannotHelp
            if placesReplicaCopy {
                throw .cannotStart("svc-\(name) --place-replica-copy: \(error)\n", restartCannotHelp: final)
            }
            throw .cannotStart("svc-\(name): cannot start: \(error)\n", restartCannotHelp: final)
        }
    }
}
