/// The exit statuses a daemon uses to tell whoever supervises it (`svc-supervisor`, or
/// systemd through the exported units) how to treat a failed start.
public enum DaemonExitStatus {
    /// It could not start, for a reason a restart would not mend: another process serves its
    /// store, the store belongs to another vertical, a newer build migrated it, or it is no
    /// SQLite store. `EX_CONFIG` of sysexits(3). `svc-supervisor` marks it failed without spending its
    /// restart budget on it, and the exported unit says `RestartPreventExitStatus=78`.
    public static let restartCannotHelp: Int32 = 78
    /// It could not start for another reason (a store it cannot open, a failed migration):
    /// `EX_SOFTWARE`, restarted as its `restart` policy says.
    public static let startFailed: Int32 = 70

    /// Served, drained and stopped in order, or answered `--help`, `--version` or a passed `--check`.
    public static let stopped: Int32 = 0
    /// `--probe` had no healthy answer: what an exec probe reads as failed.
    public static let unhealthy: Int32 = 1
    /// The command line is wrong: `EX_USAGE`.
    public static let usage: Int32 = 64
    /// The socket cannot be had (path too long, address in use): `EX_UNAVAILABLE`.
    public static let socketUnavailable: Int32 = 69

    /// Every status a daemon exits with, in order: the one list `DaemonExit` maps to and
    /// `svc-supervisor up`'s manual page is written from.
    public static let all: [ExitStatusMeaning] = [
        ExitStatusMeaning(stopped, "stopped in order, or answered --help, --version or a passed --check"),
        ExitStatusMeaning(unhealthy, "--probe had no healthy answer"),
        ExitStatusMeaning(usage, "EX_USAGE", "a wrong command line"),
        ExitStatusMeaning(
            socketUnavailable, "EX_UNAVAILABLE", "its socket cannot be had (path too long, address in use)"),
        ExitStatusMeaning(startFailed, "EX_SOFTWARE", "it could not start, or failed; restarted as its policy says"),
        ExitStatusMeaning(
            restartCannotHelp, "EX_CONFIG",
            "a failed --check, or a start a restart cannot mend (its store is another's or newer); never restarted"),
    ]
}
