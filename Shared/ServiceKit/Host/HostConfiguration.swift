import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsObservability
import VerticalsWire

/// How a vertical's host serves: its name, where it listens, and its limits.
///
/// `from(environment:name:)` reads the variables both hosts set, so `main.swift`
/// needs no configuration of its own.
public struct HostConfiguration: Sendable {
    /// The vertical's name; its socket is `<name>.sock` and its operations `<name>.<op>`.
    public var name: String
    /// Where to bind when no socket is inherited.
    public var socketDirectory: SocketDirectory
    /// The inherited listening sockets, if the service manager passed any.
    public var activation: SocketActivation?
    /// Where to listen when no socket is inherited, from `VERTICALS_LISTEN` (`unix:PATH` or
    /// `tcp:HOST:PORT`); nil: `<socket dir>/<name>.sock`.
    public var listen: SocketEndpoint?
    /// Why `VERTICALS_LISTEN` could not be read, if it could not: the host refuses to start.
    public var listenProblem: SocketEndpointError?
    /// Whether plain TCP may be served (`VERTICALS_TLS`).
    public var security = TransportSecurity()
    /// Every bound a client is held to (frame size, in-flight, connections, buffers, timeouts).
    public var limits = ConnectionLimits()
    /// Who may connect (`SO_PEERCRED`): the daemon's own uid, root and the allow-lists.
    public var access = PeerAccess()
    /// The largest frame accepted from a client (default 4 MiB); see ``limits``.
    public var maxFrameSize: Int {
        get { limits.maxFrameSize }
        set { limits.maxFrameSize = newValue }
    }
    /// Requests one connection may have in flight; past it, `resourceExhausted`. See ``limits``.
    public var maxInFlightPerConnection: Int {
        get { limits.maxInFlightPerConnection }
        set { limits.maxInFlightPerConnection = newValue }
    }
    /// How long SIGTERM waits for in-flight requests before closing anyway.
    public var drainTimeout: Duration = HostConfiguration.defaultDrainTimeout
    /// ``drainTimeout`` unless `VERTICALS_DRAIN_SECONDS` says otherwise (what exports add to a grace period).
    public static let defaultDrainTimeout: Duration = DaemonEnvironment.defaultDrainTimeout
    /// Whether the host traces and at what ratio it samples the traces it starts
    /// (`VERTICALS_TRACING`, `VERTICALS_TRACE_SAMPLE_RATIO`; see `TraceSampling`).
    public var tracing = TraceSampling()
    /// The recorder the host's spans go to; nil: the host makes its own from ``tracing``.
    /// (``ServiceRuntime`` sets it, so spans outside requests reach the same ring.)
    public var traceRecorder: TraceRecorder?
    /// What the daemon's client found its callees serving (`CalleeContracts`): `daemon.health`
    /// and `daemon.metrics` report it. ``ServiceRuntime`` sets it; nil: the daemon asks nothing.
    public var calleeContracts: CalleeContracts?
    /// The environment the configuration was read from (for `NOTIFY_SOCKET`, `WATCHDOG_USEC`).
    public var environment: [String: String]
    /// `VERTICALS_IDLE_EXIT_SECONDS` (the manifest's `idle_exit`): the daemon exits 0 once it has
    /// had no request in flight and no open stream for this long (`IdleExit`); nil: it never does.
    public var idleExit: Duration?
    /// `VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS`: with ``idleExit``, the daemon never exits idle
    /// sooner than this after it started. Starting is not admission (a connection waiting in the
    /// backlog of the socket its service manager holds starts it, whoever made it), so this is
    /// what bounds how often anyone can cycle it: at most 60 / this starts a minute. The default
    /// is the manifest's default `budget.window / budget.restarts`.
    public var idleExitMinimumUptime: Duration = .seconds(
        Int64(DaemonSettings.idleExitMinimumUptimeSeconds.defaultValue ?? 0))
    /// Event loops the host serves its connections on (`VERTICALS_LOOPS`, else the usable cores:
    /// ``LoopCount``); each connection lives on one. 1 (the default of a configuration built in
    /// code, as the supervisor's): every connection on the host's own loop.
    public var loops = 1
    /// Why `VERTICALS_LOOPS` could not be read, if it could not: the host refuses to start.
    public var loopsProblem: LoopCountError?
    /// How long a request served by a handler routed with ``Router/onSync(_:_:)`` may hold its
    /// loop before the host counts it (`verticals_sync_handler_held_loop_total`) and warns (at
    /// most once a minute per operation and loop): every other connection on that loop waits
    /// meanwhile, so such a handler belongs in ``Router/on(_:_:)``. Wall time from receipt to
    /// answer, so a host short of CPU can trip it too. `VERTICALS_SYNC_WARN_MS`; default 10 ms.
    public var syncHandlerWarning: Duration = .milliseconds(10)
    /// The bounds of the blocking-work pool (``Offload``): its queue, and when `daemon.health`
    /// calls it wedged. ``ServiceRuntime`` applies them to the process's pool at start.
    public var blockingWork = BlockingWorkLimits()
    /// The variable ``idleExit`` is read from; svc-supervisor and the systemd export set it.
    public static let idleExitVariable = DaemonEnvironment.idleExitVariable

    /// A configuration for vertical `name`, bound under `socketDirectory`.
    public init(
        name: String, socketDirectory: SocketDirectory, activation: SocketActivation? = nil,
        environment: [String: String] = [:]
    ) {
        self.name = name
        self.socketDirectory = socketDirectory
        self.activation = activation
        self.environment = environment
    }

    /// The configuration both hosts imply: socket hand-off from `LISTEN_*`, else
    /// `VERTICALS_LISTEN`, else the socket directory; `VERTICALS_TLS`, the ``ConnectionLimits`` variables, the ``PeerAccess`` allow-lists,
    /// `VERTICALS_DRAIN_SECONDS`, `VERTICALS_IDLE_EXIT_SECONDS`, `VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS`,
    /// `VERTICALS_LOOPS`, `VERTICALS_SYNC_WARN_MS`
    /// and the ``BlockingWorkLimits`` variables override the defaults.
    public static func from(environment: [String: String], name: String, pid: Int32) -> HostConfiguration {
        var configuration = HostConfiguration(
            name: name, socketDirectory: .from(environment: environment),
            activation: SocketActivation.from(environment: environment, pid: pid), environment: environment)
        configuration.limits = .from(environment: environment)
        configuration.blockingWork = .from(environment: environment)
        configuration.security = .from(environment: environment)
        if let text = environment[DaemonSettings.listen.name], !text.isEmpty {
            do { configuration.listen = try SocketEndpoint(parsing: text) } catch {
                configuration.listenProblem = error
            }
        }
        configuration.access = .from(environment: environment, service: name)
        switch LoopCount.from(environment: environment) {
        case .success(let loops): configuration.loops = loops
        case .failure(let problem): configuration.loopsProblem = problem
        }
        configuration.tracing = .from(environment: environment)
        if let value = DaemonSettings.drainSeconds.validValue(in: environment) {
            configuration.drainTimeout = .milliseconds(Int64(min(value, 1e9) * 1000))
        }
        // Like the other timeouts, a value that does not parse or is not positive is ignored.
        if let value = DaemonSettings.idleExitSeconds.validValue(in: environment) {
            configuration.idleExit = .milliseconds(Int64(min(value, 1e9) * 1000))
        }
        if let value = DaemonSettings.idleExitMinimumUptimeSeconds.validValue(in: environment) {
            configuration.idleExitMinimumUptime = .milliseconds(Int64(min(value, 1e9) * 1000))
        }
        if let value = DaemonSettings.syncWarnMilliseconds.validValue(in: environment) {
            configuration.syncHandlerWarning = .milliseconds(Int64(value))
        }
        if let value = DaemonSettings.backupKeep.validValue(in: environment) {
            configuration.backupKeep = value
        }
        return configuration
    }

    /// The vertical's store, for `daemon.backup` and a failed store's typed answer (nil: the daemon keeps none).
    public var store: (any VerticalStore)?

    /// The vertical's state directory: `daemon.backup` writes only under its `backups/` folder,
    /// the one place the daemon may always write (under systemd's `ProtectSystem=strict` too).
    /// Nil: `daemon.backup` writes nothing (`unimplemented`).
    public var stateDirectory: String?

    /// At most this many files are kept in the state directory's `backups/`: past it,
    /// `daemon.backup` answers `resourceExhausted` until some are moved away (`svc-supervisor
    /// backup` moves each one it takes). `VERTICALS_BACKUP_KEEP`, default 16.
    public var backupKeep = 16

    /// The variable that sets ``backupKeep``.
    public static let backupKeepVariable = DaemonSettings.backupKeep.name

    /// The path this host binds when no socket is inherited.
    public var socketPath: String { socketDirectory.socketPath(for: name) }
}
