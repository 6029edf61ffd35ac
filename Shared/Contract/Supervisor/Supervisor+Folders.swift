extension Supervisor {
    /// The folder a supervisor running as root leaves the note of its run directory in
    /// (`supervisor-run-dir`), so that any user's CLI finds the suite; the systemd export makes it
    /// writable for the supervisor's unit.
    public static let systemFolder = "/run/verticals"
}
