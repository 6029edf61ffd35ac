import VerticalsSettings

/// Every environment variable `svc-supervisor` and `svc-supervisor-engine` read, declared once.
/// The daemons' own settings (`DaemonSettings`) that the supervisor also reads (the run and
/// socket folders, `VERTICALS_TLS` and the operator's TLS files) are listed here by their one declaration.
/// `svc-supervisor check` validates them, and the ENVIRONMENT reference is generated from
/// ``declaration``.
///
/// ```swift
/// let group = SupervisorSettings.operatorGroup.validValue(in: environment)
/// ```
public enum SupervisorSettings {
    /// Where `up` leaves the note that finds it.
    public static let pointerDir = Setting.text(
        "VERTICALS_POINTER_DIR", type: "path", default: nil,
        defaultText: "$XDG_RUNTIME_DIR/verticals, then /run/verticals",
        doc: "The folder of the note that says where a running up keeps its suite; empty: no note.")
    /// One user per service, as root.
    public static let serviceUsers = Setting.choice(
        "VERTICALS_SERVICE_USERS", among: ["on", "off"], default: "on",
        doc: "off: as root, run every service as root instead of a user of its own.")
    /// The operators' group.
    public static let operatorGroup = Setting.text(
        "VERTICALS_OPERATOR_GROUP", type: "group", default: nil, defaultText: "verticals",
        doc: "The group whose members may run the suite's commands against a root suite.")
    /// How services are started.
    public static let spawn = Setting.choice(
        "VERTICALS_SPAWN", among: ["shim"], default: nil, defaultText: "unset: libuv's spawn where it can",
        doc: "shim: start every service through vt-exec.")
    /// The variables of the supervisor's own environment its services receive too.
    public static let passEnvironment = Setting.text(
        "VERTICALS_PASS_ENVIRONMENT", type: "names", default: nil, defaultText: "none",
        allowed: "names separated by spaces or commas; NAME* passes every name that starts with NAME",
        doc: "Variables of the supervisor's environment every service receives too (as systemd's PassEnvironment=); "
            + "a service gets no other, beyond PATH, LANG, LANGUAGE, LC_*, TZ and what the manifest and the supervisor set. "
            + "The TLS settings and the hand-off variables are never passed.")
    /// The most bytes `svc-supervisor backup` takes from a vertical.
    public static let backupMaxBytes = Setting.integer(
        "VERTICALS_BACKUP_MAX_BYTES", default: 1 << 34, in: 1...Int.max, unit: "bytes",
        doc: "The largest backup svc-supervisor backup takes from a vertical's folder (its data, holes not counted); "
            + "a larger one is refused and left where it is.")
    /// Where the CLI reads which vertical receives each kind of secret, without a supervisor.
    public static let secretsFile = Setting.text(
        "VERTICALS_SECRETS_FILE", type: "path", default: nil,
        defaultText: "the supervisor's status, else verticals-secrets.conf beside the systemd units",
        doc:
            "A file as export systemd writes verticals-secrets.conf, owned by root or this user, for a suite no supervisor runs."
    )
    /// Which product's suite the CLI means where systemd runs several (`HostSuite`).
    public static let suite = Setting.text(
        "VERTICALS_SUITE", type: "name", default: nil,
        defaultText: "the one suite whose target systemd has loaded, else verticals",
        allowed: "a suite name: a–z, 0–9 and '-', at most 16 characters",
        doc: "The [suite] name of the suite the CLI looks at under systemd when no running up answers: "
            + "its units (NAME-SERVICE.service), its sockets (/run/NAME) and its users.")

    /// The Litestream program that copies replicated stores.
    public static let litestream = Setting.text(
        "VERTICALS_LITESTREAM", type: "path", default: nil, defaultText: "litestream, looked up in PATH",
        doc: "The Litestream program svc-supervisor up runs beside each service whose manifest entry names a replica; "
            + "when there is none, the service runs and status says its store is not replicated.")

    /// Every setting the supervisor's programs read.
    public static let declaration = SettingsDeclaration(
        "svc-supervisor", summary: "What svc-supervisor and svc-supervisor-engine read.",
        [
            DaemonSettings.runDir, DaemonSettings.socketDir, pointerDir, serviceUsers, operatorGroup, spawn,
            passEnvironment, backupMaxBytes, litestream,
            DaemonSettings.logLevel, DaemonSettings.endpoint, DaemonSettings.tls, DaemonSettings.tlsCert,
            DaemonSettings.tlsKey,
            DaemonSettings.tlsCA, secretsFile, suite,
        ])
}
