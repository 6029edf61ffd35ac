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
}
