#if canImport(Glibc)
import Glibc
#endif
import IOInterface
import Storage

extension ServiceRuntime {
    /// Builds the vertical's World with `make` (which opens its store), or exits: every daemon's
    /// `main.swift` starts with it, so each reports a World it cannot build the same way.
    ///
    /// ```swift
    /// let world = runtime.makeWorld { try World.live(runtime: runtime) }
    /// ```
    ///
    /// - A failure is written to standard error as `svc-<name>: cannot start: <reason>` and the
    ///   process exits with `DaemonExitStatus.startFailed` (70), or, when another process serves
    ///   the store or the error is ``RestartCannotHelp``, with `DaemonExitStatus.restartCannotHelp` (78): restarting would only be
    ///   refused again, so supervisors do not. The supervisor keeps that line as the reason of the exit
    ///   (`svc-supervisor status`); a store another process serves reads, for instance,
    ///   `…: another process, svc-identity (pid 1234), is serving it; stop that one, or give this
    ///   one its own STATE_DIRECTORY…`.
    /// - Under `--check`, a store another process holds is *not* a failure: that process opened
    ///   and migrated it, and the check must neither migrate a store in use nor fail because the
    ///   daemon runs. The check prints that the store is held by pid N, was not opened, and exits 0.
    public func makeWorld<World>(_ make: () throws -> World) -> World {
        do {
            return try make()
        } catch {
            let held = (error as? StoreError).flatMap { $0.isHeld ? $0 : nil }
            if checkOnly, let held {
                let holder = held.holderPID.map { "running pid \($0)" } ?? "a running process"
                print(
                    "svc-\(name) --check: environment valid; the store in \(stateDirectory) is held by \(holder), "
                        + "which opened and migrated it: not opened by the check")
                exit(0)
            }
            StandardError.write("svc-\(name): cannot start: \(error)\n")
            let final = held != nil || error is any RestartCannotHelp
            exit(final ? DaemonExitStatus.restartCannotHelp : DaemonExitStatus.startFailed)
        }
    }
}
