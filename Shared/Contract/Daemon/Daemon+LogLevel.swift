import VerticalsWire
extension Daemon {
    /// Changes how much a running daemon logs, at once and without a restart
    /// (`svc-supervisor log-level NAME debug`); without a level, only reports it. The level
    /// lasts until the process exits: `VERTICALS_LOG_LEVEL` sets it at the next start. Only the
    /// operator may call it.
    public static let setLogLevel = Operation<LogLevelInput, LogLevelChange>(
        name, "setLogLevel",
        summary: "Set the daemon's log level until it exits (or, without a level, report it).",
        errors: [.invalidInput, .permissionDenied], marks: [.operatorOnly])
}
