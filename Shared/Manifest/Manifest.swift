import VerticalsContract
import VerticalsWire

/// The suite as `deploy/suite.toml` declares it: every service and how to supervise it.
///
/// A value type the engine's `ManifestParser` produces, and the engine and the exports
/// (VerticalsDeploy) read; `svc-supervisor check` and `up` refuse a manifest whose
/// ``ManifestError``s are not empty.
public struct Manifest: Sendable, Equatable {
    /// Every service, in the order the file lists them.
    public var services: [ServiceSpec]
    /// The product's name on a host (`[suite] name`, ``SuiteName``): what its units, users,
    /// group and folders are named after. `verticals` when the manifest gives none.
    public var suiteName = SuiteName.default

    /// Creates a manifest.
    public init(services: [ServiceSpec]) {
        self.services = services
    }

    /// The service named `name`.
    public subscript(name: String) -> ServiceSpec? {
        services.first { $0.name == name }
    }

    /// The services this host runs: every service but the remote ones (``ServiceSpec/isRemote``),
    /// whose names are also dropped from `depends_on`, since nothing here waits for them.
    public var runnable: Manifest {
        let remote = Set(services.filter(\.isRemote).map(\.name))
        guard !remote.isEmpty else { return self }
        var runnable = self
        runnable.services = services.filter { !$0.isRemote }.map { service in
            var service = service
            service.dependsOn.removeAll { remote.contains($0) }
            return service
        }
        return runnable
    }

    /// Every TCP endpoint the manifest names, local or remote, by the service's name.
    public var endpoints: [String: SocketEndpoint] {
        Dictionary(services.compactMap { service in service.endpoint.map { (service.name, $0) } }) { first, _ in first }
    }
}

/// One supervised service.
public struct ServiceSpec: Sendable, Equatable {
    /// Its name: its socket is `<name>.sock`, its log `<name>.log`.
    public var name: String
    /// The program: an absolute path, or a name looked up beside svc-supervisor itself.
    public var executable: String
    /// Arguments after the program name.
    public var arguments: [String] = []
    /// Extra environment variables (the supervisor adds its own: sockets, state, notify).
    public var environment: [String: String] = [:]
    /// Services that must be ready before this one starts (and, for `rest_for_one`, restart it):
    /// the verticals `depends_on` names, each once, whether whole or by operation.
    public var dependsOn: [String] = []
    /// The operations `depends_on` names one by one (`"identity.authenticate"`), by callee, their
    /// names within it in the order written. A callee named whole (`"identity"`) has no entry:
    /// its caller may call every operation of it that is not operator-only
    /// (``ServiceSpec/routeEntries``, ``ServiceAccounts/applyRoutes(to:for:in:)``).
    public var dependsOnOperations: [String: [String]] = [:]
    /// When to restart after an exit.
    public var restart: RestartPolicy = .onFailure
    /// What else restarts with it (OTP's supervisor strategies).
    public var strategy: RestartStrategy = .oneForOne
    /// The group a `one_for_all` service restarts with: every service naming the same group.
    public var group: String?
    /// The `daemon.health` check, when set (needs `socket = true`).
    public var liveness: LivenessCheck?
    /// rlimits, niceness and cgroup limits.
    public var limits = ResourceLimits()
    /// Log rotation by age, kept files and compression (size: `logMaxBytes`).
    public var logRotation = LogRotation()
    /// How long to wait before each restart.
    public var backoff = Backoff()
    /// At most this many restarts within this window; past it the service is `failed`.
    public var budget = RestartBudget()
    /// How the service says it is ready.
    public var readiness: Readiness = .notify
    /// How long it may take to become ready before the start counts as failed.
    public var readyTimeout: Duration = .seconds(10)
    /// The signal that asks it to stop (SIGTERM by default).
    public var stopSignal: Int32 = 15
    /// How long it may take to stop before SIGKILL.
    public var stopTimeout: Duration = .seconds(10)
    /// `WatchdogSec`: the service must send `WATCHDOG=1` at least this often, when set.
    public var watchdog: Duration?
    /// Its log file is rotated when it passes this size.
    public var logMaxBytes: Int = 10 << 20
    /// Whether the supervisor binds `<name>.sock` and hands it over (`LISTEN_FDS`); true for verticals.
    public var socket = true
    /// The user it runs as when svc-supervisor runs as root (and under systemd); nil: the
    /// default, `verticals-<name>` (``ServiceAccounts/userName(_:prefix:)``).
    public var user: String?
    /// Whether it keeps state of its own in its state folder (a SQLite store); true for verticals.
    /// `export kubernetes` makes a stateful service a StatefulSet of one replica with a volume,
    /// a stateless one a Deployment.
    public var store = true
    /// `replica = { type = "folder", path = "/mnt/replica" }`: where Litestream copies its store
    /// off the host, as written (``Replica/forService(_:)`` gives this service's own folder and
    /// credential). Nil: the store stays on this host.
    public var replica: Replica?
    /// `endpoint = "tcp:HOST:PORT"`: the supervisor binds this TCP address instead of
    /// `<name>.sock` and hands it over; every service it starts is given it as
    /// `VERTICALS_ENDPOINT_<NAME>`. Without an executable the service is remote (``isRemote``).
    public var endpoint: SocketEndpoint?

    /// A service that runs elsewhere (another host): it has an endpoint and no executable, so it
    /// is neither started nor waited for; its dependents only learn its address.
    public var isRemote: Bool { executable.isEmpty && endpoint != nil }
    /// `host = "a"`: the host it runs on when one manifest describes a suite on several hosts.
    /// `export systemd --host a` writes units for the services placed on `a` (and those placed
    /// nowhere); a service placed on another host is remote there, reached at its `endpoint`.
    /// Nil: every host that runs the manifest runs it.
    public var host: String?

    /// Whether it runs on `host`: it has an executable and is placed there or nowhere.
    /// `host` nil: every service with an executable runs.
    public func runs(on host: String?) -> Bool {
        guard !executable.isEmpty else { return false }
        guard let host, let placed = self.host else { return true }
        return placed == host
    }
    /// `start`: at once (the default), or at the first connection to its socket (`"on-demand"`).
    public var start: StartMode = .atStart
    /// `idle_exit = "5m"`: the daemon exits 0 once it has had no request in flight and no open
    /// stream for this long (`VERTICALS_IDLE_EXIT_SECONDS`); its socket, still held, starts it
    /// again at the next connection. Nil: it never exits for being idle.
    public var idleExit: Duration?
    /// Whether a connection to its socket starts it when no process runs: `start = "on-demand"`,
    /// or an `idle_exit`, after which the next caller brings it back.
    public var startsOnDemand: Bool { socket && (start == .onDemand || idleExit != nil) }

    /// `certificates = "DIR"`: a folder as `svc-supervisor certs` writes it; the service gets
    /// `DIR/NAME/tls.crt`, `tls.key` and `ca.crt` as its TLS files, and its callers' names (with
    /// the operator's) as its allowed peers (``ServiceAccounts/applyCertificates(to:for:in:)``).
    public var certificates: String?

    /// `receives = ["sessions", "password"]`: the kinds of secret the CLI sends to this service,
    /// and to no other (``Manifest/secretRecipients``); at most one service receives each kind.
    public var receives: [SecretKind] = []

    /// A service with defaults for everything but its name and program.
    public init(name: String, executable: String) {
        self.name = name
        self.executable = executable
    }
}

/// When a service is restarted after it exits.
public enum RestartPolicy: String, Sendable, Equatable, CaseIterable {
    /// After any exit.
    case always
    /// After a non-zero exit, a signal, a missed watchdog or a ready timeout.
    case onFailure = "on-failure"
    /// Never.
    case never
}

/// When the supervisor starts a service (the manifest's `start`).
public enum StartMode: String, Sendable, Equatable, CaseIterable {
    /// With the suite, in dependency order (the default).
    case atStart = "at-start"
    /// When the first caller connects: the supervisor holds its socket and watches it without
    /// accepting, the caller waits in the backlog, and the new process serves it. Its
    /// dependents do not wait for it at start-up; `status` shows it `idle (on demand)`.
    case onDemand = "on-demand"
}

/// Exponential restart backoff: `initial`, then × `multiplier` per restart, at most `max`;
/// back to `initial` once a run has stayed ready for `resetAfter` (proven alive, see `RestartLedger`).
public struct Backoff: Sendable, Equatable {
    /// The first delay.
    public var initial: Duration = .milliseconds(100)
    /// The longest delay.
    public var max: Duration = .seconds(30)
    /// The growth per restart (≥ 1).
    public var multiplier: Double = 2
    /// How long a run must stay ready for the next restart to start from `initial` again.
    public var resetAfter: Duration = .seconds(10)

    /// The defaults: 100 ms, ×2, at most 30 s, forgiven after 10 s ready.
    public init(
        initial: Duration = .milliseconds(100), max: Duration = .seconds(30), multiplier: Double = 2,
        resetAfter: Duration = .seconds(10)
    ) {
        self.initial = initial
        self.max = max
        self.multiplier = multiplier
        self.resetAfter = resetAfter
    }
}

/// A windowed restart budget: more than `maxRestarts` within `window` marks the service failed.
public struct RestartBudget: Sendable, Equatable {
    /// Restarts allowed within the window.
    public var maxRestarts: Int = 5
    /// The window.
    public var window: Duration = .seconds(60)

    /// The defaults: 5 restarts in 60 s.
    public init(maxRestarts: Int = 5, window: Duration = .seconds(60)) {
        self.maxRestarts = maxRestarts
        self.window = window
    }
}

/// How a service says it is ready.
public enum Readiness: String, Sendable, Equatable, CaseIterable {
    /// It sends `READY=1` to `NOTIFY_SOCKET` (sd_notify).
    case notify
    /// It is ready as soon as it runs.
    case none
}

/// One thing wrong with a manifest, located by service and key.
///
/// Compare ``code`` with the static members of ``Code`` (new codes may be added); the service and
/// key are also the details `service` and `key`, beside the values the problem is about (`path`,
/// `line` and `column`, `dependency`, `other`…), so a program reads them without parsing the
/// message.
///
/// ```swift
/// let (_, problems) = ManifestParser.load(path: "deploy/suite.toml", binDirectory: bin)
/// let unknown = problems.filter { $0.code == .unknownKey }.compactMap(\.key)
/// ```
public struct ManifestError: CodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<ManifestError>

    /// What kind of problem it is.
    public var code: Code
    /// The service, when the problem is about one.
    public var service: String?
    /// The key, e.g. `depends_on`.
    public var key: String?
    /// What is wrong and what to do.
    public var message: String
    /// The values the problem is about, besides its service and key.
    public var values: [ErrorDetail]
    /// What the system or a parser said, when that led to it.
    public var cause: (any Error)?

    /// A problem of `code` about `service`'s `key` (either may be nil), saying `message`; `values`
    /// are the details besides the service and key.
    public init(
        _ code: Code, service: String? = nil, key: String? = nil, _ message: String, values: [ErrorDetail] = [],
        cause: (any Error)? = nil
    ) {
        self.code = code
        self.service = service
        self.key = key
        self.message = message
        self.values = values
        self.cause = cause
    }

    /// The service (`service`) and key (`key`) when it names them, then its ``values``.
    public var details: [ErrorDetail] {
        [service.map { ErrorDetail("service", $0) }, key.map { ErrorDetail("key", $0) }].compactMap { $0 } + values
    }

    /// The message, after the service and key it is about: `services.one.restart: must be…`.
    public var description: String {
        switch (service, key) {
        case (let service?, let key?): "services.\(service).\(key): \(message)"
        case (let service?, nil): "services.\(service): \(message)"
        case (nil, let key?): "\(key): \(message)"
        case (nil, nil): message
        }
    }

    /// The same code, service, key, message and values; the causes are not compared.
    public static func == (lhs: ManifestError, rhs: ManifestError) -> Bool {
        lhs.code == rhs.code && lhs.service == rhs.service && lhs.key == rhs.key && lhs.message == rhs.message
            && lhs.values == rhs.values
    }
}

extension ErrorKind where Domain == ManifestError {
    /// The manifest, or a file it names (a contract lock), cannot be read: the detail `path` names it.
    public static var unreadable: Self { Self("unreadable") }
    /// The text is not valid TOML, or holds a character no value may hold: the details `line` and
    /// `column` say where, when the reader knows.
    public static var syntax: Self { Self("syntax") }
    /// A key the manifest does not know (a typo, most often: the message suggests the nearest).
    public static var unknownKey: Self { Self("unknownKey") }
    /// A value of another type than its key takes (a string for a table, a number for a duration).
    public static var wrongType: Self { Self("wrongType") }
    /// Something the manifest must say is missing: a service's `executable`, `[suite] name`, any service.
    public static var missing: Self { Self("missing") }
    /// A value of the right type outside what its key accepts (a range, a list of names, a form).
    public static var invalidValue: Self { Self("invalidValue") }
    /// A service's or the suite's name breaks the naming rules, names a role, or makes a socket
    /// path too long.
    public static var invalidName: Self { Self("invalidName") }
    /// What must be unique is given twice: a service, a user, a credential, a replica, a secret's
    /// recipient, an entry of a list. The detail `other` names the first holder, when there is one.
    public static var duplicate: Self { Self("duplicate") }
    /// Settings that contradict each other, or together ask for more than they allow.
    public static var conflict: Self { Self("conflict") }
    /// `depends_on` names a service the manifest does not have, or an operation its contract does
    /// not declare: the detail `dependency` names it.
    public static var unknownDependency: Self { Self("unknownDependency") }
    /// Services depend on each other in a circle (or one on itself), so none can start first.
    public static var dependencyCycle: Self { Self("dependencyCycle") }
    /// `depends_on` names an operation only the operator may call, which no service can be granted.
    public static var operatorOnly: Self { Self("operatorOnly") }
    /// The program is not found, not a regular file, or not executable: the detail `path` names it.
    public static var badExecutable: Self { Self("badExecutable") }
    /// A file the manifest names (a replica's credential) is missing, or others may read it.
    public static var unsafeFile: Self { Self("unsafeFile") }
}

/// The name 0.1.0 published for ``ManifestError``.
@available(*, deprecated, renamed: "ManifestError")
public typealias ManifestProblem = ManifestError
