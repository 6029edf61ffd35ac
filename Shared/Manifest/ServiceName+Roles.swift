extension ServiceName {
    /// Names a service may not take because a role or the suite's own files already use them,
    /// each with what uses it: a vertical named `operator` would be given the operator's
    /// certificate folder (`svc-supervisor certs` writes `DIR/operator/`), one named `sockets`
    /// would have its state folder where the run folder keeps every socket. `check`, `up`,
    /// `certs` (through the manifest's problems) and `init`/`new` (the scaffold's
    /// `VerticalName`) refuse them all from this one list.
    public static let roles: [(name: String, usedBy: String)] = [
        ("operator", "the operator's certificate (DIR/operator/ of svc-supervisor certs, verticals://operator)"),
        ("supervisor", "the supervisor (its control socket RUN/supervisor.sock, the Supervisor contract)"),
        ("ca", "the suite CA of svc-supervisor certs (DIR/ca.crt, DIR/ca.key)"),
        ("notify", "the notify socket RUN/notify.sock"),
        ("sockets", "the run folder's socket folder RUN/sockets"),
        ("logs", "the run folder's log folder RUN/logs"),
        ("pids", "the run folder's pid records RUN/pids"),
        ("state", "the run folder's state folders RUN/state"),
        ("runtime", "the run folder's runtime folders RUN/runtime"),
        ("supervisor-run-dir", "the suite pointer (POINTER/supervisor-run-dir)"),
    ]

    /// Why `name` may not name a service because a role uses it (``roles``); nil when none does.
    public static func roleProblem(_ name: String) -> String? {
        guard let role = roles.first(where: { $0.name == name }) else { return nil }
        return "\"\(name)\" is reserved: it names a role, not a vertical (\(role.usedBy)); choose another name"
    }
}
