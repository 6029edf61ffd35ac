import VerticalsContract
import VerticalsStorage

extension ServiceRuntime {
    /// Builds the vertical's World with `make` (which opens its store), or says how the daemon
    /// ends instead: ``DaemonMain`` calls it, so each daemon reports a World it cannot build the same way.
    ///
    /// - A failure ends it as ``DaemonExit/cannotStart(_:restartCannotHelp:)``: `svc-<name>: cannot
    ///   start: <reason>` on standard error, status `DaemonExitStatus.startFailed` (70), or
    ///   `DaemonExitStatus.restartCannotHelp` (78) when opening the store again would fail the same
    ///   way (``StoreError/restartCannotHelp``): another process serves it, it is another vertical's
    ///   (its application_id, see `StoreOwner`), a newer build migrated it, or it is no SQLite store; or the
    ///   error is ``RestartCannotHelp`` (a setting the daemon refuses).
    ///   Supervisors do not restart it then. The supervisor keeps that line as the reason of the exit
    ///   (`svc-supervisor status`); a store another process serves reads, for instance,
    ///   `…: another process, svc-identity (pid 1234), is serving it; stop that one, or give this
    ///   one its own STATE_DIRECTORY…`.
    /// - Under `--check` the store is checked, never created (`SQLiteStore.checking`): with none yet
    ///   the check says so and ends with status 0. A store another process holds is *not* a failure
    ///   either: that process opened and migrated it, and the check must neither migrate a store in
    ///   use nor fail because the daemon runs. The check says the store is held by pid N and was
    ///   not opened; status 0.
    func makeWorld<World>(_ make: () throws -> World) throws(DaemonExit) -> World {
        do {
            return try SQLiteStore.$checking.withValue(checkOnly) { try make() }
        } catch {
            let store = error as? StoreError
            if checkOnly, let store, store.isMissing {
                throw .answered(
                    "svc-\(name) --check: environment valid; no store in \(stateDirectory) yet: the daemon creates "
                        + "it at its first start, the check does not\n")
            }
            if checkOnly, let store, store.isHeld {
                let holder = store.holderPID.map { "running pid \($0)" } ?? "a running process"
                throw .answered(
                    "svc-\(name) --check: environment valid; the store in \(stateDirectory) is held by \(holder), "
                        + "which opened and migrated it: not opened by the check\n")
            }
            let final = store?.restartCannotHelp == true || error is any RestartCannotHelp
            throw .cannotStart("svc-\(name): cannot start: \(error)\n", restartCannotHelp: final)
        }
    }
}
