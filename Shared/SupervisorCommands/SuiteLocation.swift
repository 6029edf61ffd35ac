import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient

/// Where a command finds the running suite, the same way for every command: `--run-dir`, else
/// `$VERTICALS_RUN_DIR`, else the run directory a running `up` left a pointer to
/// (``SuitePointer``), else `.run` in the current folder — except as root, who never trusts the
/// current folder (anyone may have made it, and put sockets in it): the socket folder of the
/// suite systemd runs (``HostSuite``, `/run/NAME`), instead. It remembers what it looked at, so that "no supervisor" can say which places
/// were tried and how to point at the suite.
package struct SuiteLocation: Sendable {
    /// The run directory, as given (relative paths stay relative in messages).
    package let runDirectory: String
    /// One line per place looked at, in order, ending with the one chosen.
    package let tried: [String]
    /// Whether nothing named the suite and `.run` was the last resort.
    package let isFallback: Bool
    /// Whether a running `up`'s pointer named it: the suite started last, of any folder.
    package var isFromPointer = false
    /// Whether it is root's last resort: the socket folder of the suite systemd runs
    /// (``HostSuite/socketDirectory``), which holds the sockets themselves, not a run directory.
    package var isSystemdSockets = false

    /// The text `--help` shows for `--run-dir`, the same in every command.
    package static let help = """
        The suite's run directory (its `up --run-dir`). Default: $VERTICALS_RUN_DIR, else the one a running \
        `up` points to from $XDG_RUNTIME_DIR/verticals, /tmp/verticals-UID or /run/verticals \
        ($VERTICALS_POINTER_DIR overrides), else .run here.
        """

    /// Where root looks when nothing names the suite: the socket folder of the suite systemd runs
    /// here (`/run/NAME`: ``HostSuite``, ``VerticalConnectionOptions/sockets``), never a folder
    /// under the current one. `exported`: the suites systemd knows (``HostSuite/exportedSuites()``).
    package static func rootFallback(
        environment: [String: String], exported: @autoclosure () -> [String] = HostSuite.exportedSuites()
    ) -> (folder: String, tried: String) {
        do {
            let suite = try HostSuite.resolve(environment: environment, exported: exported())
            return (
                suite.socketDirectory,
                "\(suite.socketDirectory) (as root, never .run in the current folder; suite \(suite.name): "
                    + "\(suite.chosenBy))\(suite.choiceHint)"
            )
        } catch {
            return (HostSuite.reference.socketDirectory, "\(HostSuite.reference.socketDirectory) (as root; \(error))")
        }
    }

    /// The run directory for `flag` (the `--run-dir` value) in `environment`, for a command
    /// running as `euid`; `exported`: the suites systemd knows here, which root falls back on.
    package static func resolve(
        flag: String?, environment: [String: String] = ProcessEnvironment.current,
        pointers: [SuitePointer]? = nil, euid: UInt32 = geteuid(),
        exported: @autoclosure () -> [String] = HostSuite.exportedSuites()
    ) -> SuiteLocation {
        if let flag { return SuiteLocation(runDirectory: flag, tried: ["--run-dir \(flag)"], isFallback: false) }
        if let run = environmentRunDirectory(environment) {
            return SuiteLocation(runDirectory: run, tried: ["$VERTICALS_RUN_DIR=\(run)"], isFallback: false)
        }
        var tried = ["--run-dir (not given)", "$VERTICALS_RUN_DIR (not set)"]
        let places = pointers ?? SuitePointer.places(environment: environment)
        if places.isEmpty { tried.append("a running `up`'s pointer ($\(SuitePointer.folderVariable) is empty)") }
        for pointer in places {
            if let target = pointer.liveTarget() {
                tried.append("\(pointer.path) → \(target.runDirectory) (svc-supervisor pid \(target.pid))")
                return SuiteLocation(
                    runDirectory: target.runDirectory, tried: tried, isFallback: false, isFromPointer: true)
            }
            let state =
                pointer.refusal.map { "ignored: \(pointer.folder) \($0)" }
                ?? (pointer.isStale ? "stale: its supervisor is gone" : "none")
            tried.append("\(pointer.path) (\(state))")
        }
        if euid == 0 {
            let fallback = rootFallback(environment: environment, exported: exported())
            tried.append(fallback.tried)
            return SuiteLocation(runDirectory: fallback.folder, tried: tried, isFallback: true, isSystemdSockets: true)
        }
        tried.append(".run in \(ProgramPaths.currentDirectory())")
        return SuiteLocation(runDirectory: ".run", tried: tried, isFallback: true)
    }

    /// `$VERTICALS_RUN_DIR` when set and not empty.
    package static func environmentRunDirectory(_ environment: [String: String]) -> String? {
        environment[DaemonSettings.runDir.name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The run directory, absolute (a relative one is taken from the current folder).
    package var absoluteRunDirectory: String {
        runDirectory.hasPrefix("/") ? runDirectory : "\(ProgramPaths.currentDirectory())/\(runDirectory)"
    }

    /// The line above a listing of the suite (`status`): which suite it is, by its run directory,
    /// and, when a running `up`'s pointer chose it, that another is reached with `--run-dir`.
    package var heading: String {
        "suite at \(absoluteRunDirectory)"
            + (isFromPointer ? " (the last `up` started; --run-dir DIR for another)" : "")
    }

    /// The lines to add under "no supervisor at …" when the place was a guess: where else was
    /// looked, and how to name the suite. None when the user named the run directory.
    package var advice: [String] {
        guard isFallback else { return [] }
        return ["looked at, in order:"] + tried.map { "  \($0)" }
            + ["a suite running elsewhere: pass --run-dir DIR or set VERTICALS_RUN_DIR=DIR (its `up --run-dir`)"]
    }
}
