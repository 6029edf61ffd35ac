import VerticalsSettings
import VerticalsWire

/// Every environment variable a vertical's daemon reads through the framework, declared once:
/// ServiceKit and the store read them, the supervisor and the exports (systemd, Kubernetes) write
/// them, all by these declarations. `svc-<name> --check` validates every one, and the ENVIRONMENT
/// reference (`docs/reference/environment.md`) is generated from ``declaration``.
///
/// ```swift
/// let limit = DaemonSettings.maxInFlight.validValue(in: environment) ?? 1024
/// environment[DaemonSettings.socketDir.name] = layout.socketDirectory
/// ```
public enum DaemonSettings {
    // MARK: Where

    /// The run directory.
    public static let runDir = Setting.text(
        "VERTICALS_RUN_DIR", type: "path", default: nil,
        defaultText: "unset: systemd's layout as root, else .run",
        doc: "Where the suite keeps its sockets (sockets/) and each vertical's state (state/NAME).")
    /// The socket folder.
    public static let socketDir = Setting.text(
        "VERTICALS_SOCKET_DIR", type: "path", default: nil, defaultText: "RUN_DIR/sockets (/run/verticals as root)",
        doc: "The folder of every vertical's Unix socket, NAME.sock.")
    /// The endpoint the daemon serves instead of its socket.
    public static let listen = Setting.text(
        "VERTICALS_LISTEN", type: "endpoint", default: nil, defaultText: "the Unix socket",
        allowed: "tcp:HOST:PORT, unix:PATH",
        doc: "Where the daemon listens instead of its socket under the socket folder.")
    /// The prefix of the variables that say where to call another vertical.
    public static let endpointPrefix = "VERTICALS_ENDPOINT_"
    /// Where to call vertical NAME (a family of variables, one per callee).
    public static let endpoint = Setting.text(
        endpointPrefix + "<NAME>", type: "endpoint", default: nil, defaultText: "NAME.sock in the socket folder",
        allowed: "tcp:HOST:PORT, unix:PATH", doc: "Where to call vertical NAME (uppercase, - as _).")
    /// The manifest's `depends_on`.
    public static let dependsOn = Setting.text(
        "VERTICALS_DEPENDS_ON", type: "list", default: nil, defaultText: "unset: not checked",
        allowed: "names, comma-separated",
        doc: "The manifest's depends_on, set by the supervisor: the daemon warns when its calls differ.")

    // MARK: Logs and life

    /// The log level.
    public static let logLevel = Setting.choice(
        "VERTICALS_LOG_LEVEL", among: ["trace", "debug", "info", "notice", "warning", "error", "critical"],
        default: "info", doc: "The least severe log line written; svc-supervisor log-level changes it live.")
    /// The event loops.
    public static let loops = Setting.integer(
        "VERTICALS_LOOPS", default: nil, defaultText: "the cores the process may use", in: 1...256,
        doc: "How many event loops (threads) serve connections.")
    /// The drain on SIGTERM.
    public static let drainSeconds = Setting.number(
        "VERTICALS_DRAIN_SECONDS", unit: "seconds", default: 10, atLeast: 0,
        doc: "How long SIGTERM waits for requests in flight before closing anyway.")
    /// The idle exit.
    public static let idleExitSeconds = Setting.number(
        "VERTICALS_IDLE_EXIT_SECONDS", unit: "seconds", default: nil, defaultText: "unset: never", above: 0,
        doc: "Exit 0 after this long with no request in flight (the manifest's idle_exit).")
    /// The idle exit's floor: how long a daemon stays up after it starts, however idle.
    public static let idleExitMinimumUptimeSeconds = Setting.number(
        "VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS", unit: "seconds", default: 12, atLeast: 0,
        doc:
            "With an idle exit, never exit idle sooner than this after start, so whoever starts the daemon "
            + "(a stranger's connection in the backlog included) cannot cycle it faster than 60 / this a minute; "
            + "svc-supervisor and the systemd export set it to the manifest's budget.window / budget.restarts.")
    /// The slow-handler warning.
    public static let syncWarnMilliseconds = Setting.integer(
        "VERTICALS_SYNC_WARN_MS", default: 10, in: 1...Int.max, unit: "milliseconds",
        doc: "A handler that holds the loop longer than this is logged as a warning.")
    /// `--probe`'s deadline.
    public static let probeTimeoutSeconds = Setting.number(
        "VERTICALS_PROBE_TIMEOUT_SECONDS", unit: "seconds", default: 2, above: 0, atMost: 3600,
        doc: "How long --probe waits for daemon.health.")
    /// The backups kept.
    public static let backupKeep = Setting.integer(
        "VERTICALS_BACKUP_KEEP", default: 16, in: 1...Int.max, unit: "files",
        doc: "Backups kept in the state directory before daemon.backup refuses more.")
    /// The store handed over by an upgrade.
    public static let storeHandover = Setting.choice(
        "VERTICALS_STORE_HANDOVER", among: ["1"], default: nil, defaultText: "unset",
        doc: "Set by the supervisor on an upgrade: the new daemon takes the store over from the old one.")
    /// The store replicated off the host.
    public static let storeReplica = Setting.choice(
        "VERTICALS_STORE_REPLICA", among: ["litestream"], default: nil, defaultText: "unset: not replicated",
        doc:
            "Set with the manifest's replica: Litestream checkpoints the store and the daemon waits longer on its locks."
    )

    // MARK: Limits

    /// The largest frame.
    public static let maxFrameBytes = Setting.integer(
        "VERTICALS_MAX_FRAME_BYTES", default: FrameDecoder.defaultMaxFrameSize, in: 1...Int.max, unit: "bytes",
        doc: "The largest frame payload accepted (at most 4294967295 is used).")
    /// Requests in flight per connection.
    public static let maxInFlight = Setting.integer(
        "VERTICALS_MAX_IN_FLIGHT", default: 1024, in: 1...Int.max,
        doc: "Requests one connection may have in flight; past it, resourceExhausted.")
    /// Connections.
    public static let maxConnections = Setting.integer(
        "VERTICALS_MAX_CONNECTIONS", default: 1024, in: 1...Int.max, doc: "Client connections held open at once.")
    /// Connections per caller.
    public static let maxConnectionsPerPeer = Setting.integer(
        "VERTICALS_MAX_CONNECTIONS_PER_PEER", default: 128, in: 1...Int.max,
        doc: "Client connections one caller (uid, certificate, address) may hold open at once.")
    /// Backpressure.
    public static let outboundHighWaterBytes = Setting.integer(
        "VERTICALS_OUTBOUND_HIGH_WATER_BYTES", default: 1 << 20, in: 1...Int.max, unit: "bytes",
        doc: "Queued reply bytes above which a connection stops being read until it drains.")
    /// The outbound cap.
    public static let maxOutboundBytes = Setting.integer(
        "VERTICALS_MAX_OUTBOUND_BYTES", default: 16 << 20, in: 1...Int.max, unit: "bytes",
        doc: "Queued reply bytes above which the connection is closed (its peer does not read).")
    /// The first frame's deadline.
    public static let handshakeTimeoutSeconds = Setting.number(
        "VERTICALS_HANDSHAKE_TIMEOUT_SECONDS", unit: "seconds", default: 10, above: 0,
        doc: "How long a new connection may take to send its first whole frame.")
    /// The TLS handshake's deadline.
    public static let tlsHandshakeTimeoutSeconds = Setting.number(
        "VERTICALS_TLS_HANDSHAKE_TIMEOUT_SECONDS", unit: "seconds", default: 5, above: 0,
        doc: "How long a TCP peer may take to finish its TLS handshake, from accept; then it is closed.")
    /// Unadmitted connections in all (OpenSSH's MaxStartups).
    public static let maxStartups = Setting<[Int]>(
        "VERTICALS_MAX_STARTUPS", type: "start:rate:full", default: [64, 30, 256], defaultText: "64:30:256",
        allowed: "start:rate:full, 1 ≤ start ≤ full, 0 ≤ rate ≤ 100",
        doc:
            "TLS connections accepted and not yet admitted: past start, a new one is dropped with a chance of rate % rising to 100 % at full."
    ) { text in
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard parts.count == 3, parts[0] >= 1, (0...100).contains(parts[1]), parts[2] >= parts[0] else { return nil }
        return parts
    }
    /// Unadmitted connections from one address.
    public static let maxStartupsPerAddress = Setting.integer(
        "VERTICALS_MAX_STARTUPS_PER_ADDRESS", default: 32, in: 1...Int.max,
        doc: "TLS connections from one address accepted and not yet admitted; past it, a new one from there is dropped."
    )
    /// A frame's deadline.
    public static let frameTimeoutSeconds = Setting.number(
        "VERTICALS_FRAME_TIMEOUT_SECONDS", unit: "seconds", default: 10, above: 0,
        doc: "How long a frame, once begun, may take to arrive whole.")
    /// The idle connection's deadline.
    public static let idleTimeoutSeconds = Setting.number(
        "VERTICALS_IDLE_TIMEOUT_SECONDS", unit: "seconds", default: 600, above: 0,
        doc: "How long a connection with nothing in flight may stay silent before it is closed.")
    /// Blocking jobs waiting.
    public static let blockingQueue = Setting.integer(
        "VERTICALS_BLOCKING_QUEUE", default: 256, in: 0...1_000_000, unit: "jobs",
        doc: "Jobs that may wait for a thread of each pool (blocking work, compute); past it, resourceExhausted.")
    /// A stuck blocking job.
    public static let blockingStallSeconds = Setting.number(
        "VERTICALS_BLOCKING_STALL_SECONDS", unit: "seconds", default: 30, above: 0, atMost: 86_400,
        doc: "How long every blocking-work thread may run one job before health fails.")
    /// How far CPU-bound work yields to serving.
    public static let computeNice = Setting.integer(
        "VERTICALS_COMPUTE_NICE", default: 19, in: 0...19, unit: "nice steps",
        doc:
            "How many nice steps below the daemon CPU-bound work runs (password hashing: Offload.compute's threads, the scheduling group of each compute process), so serving goes first."
    )

    // MARK: Transport security

    /// TLS on TCP.
    public static let tls = Setting.choice(
        "VERTICALS_TLS", among: ["on", "off", "off-insecure"], default: "on",
        doc: "on: TCP needs mutual TLS; off: plain TCP on loopback only; off-insecure: plain TCP anywhere.")
    /// The certificate.
    public static let tlsCert = Setting.text(
        "VERTICALS_TLS_CERT", type: "path", default: nil, doc: "This vertical's certificate (PEM), for TLS on TCP.")
    /// The key.
    public static let tlsKey = Setting.text(
        "VERTICALS_TLS_KEY", type: "path", default: nil, doc: "This vertical's private key (PEM).")
    /// The suite CA.
    public static let tlsCA = Setting.text(
        "VERTICALS_TLS_CA", type: "path", default: nil,
        doc: "The suite CA (PEM) every peer's certificate must chain to.")
    /// How the TLS files are watched.
    public static let tlsReloadSeconds = Setting.number(
        "VERTICALS_TLS_RELOAD_SECONDS", unit: "seconds", default: nil, defaultText: "unset: watch the folders",
        above: 0,
        doc: "Reread the TLS files on this period instead of watching their folders.")

    // MARK: Who may call

    /// Caller uids.
    public static let allowedUIDs = Setting.text(
        "VERTICALS_ALLOWED_UIDS", type: "list", default: nil, defaultText: "unset: any local uid",
        allowed: "uids, comma-separated",
        doc: "Local callers admitted, by uid (the supervisor sets it for service users).")
    /// Internal uids.
    public static let internalUIDs = Setting.text(
        "VERTICALS_INTERNAL_UIDS", type: "list", default: nil, allowed: "uids, comma-separated",
        doc: "Local callers admitted to internal operations.")
    /// Operator gids.
    public static let allowedGIDs = Setting.text(
        "VERTICALS_ALLOWED_GIDS", type: "list", default: nil, allowed: "gids or group names, comma-separated",
        doc: "Local callers admitted by group (the operator group).")
    /// Caller certificates.
    public static let allowedPeers = Setting.text(
        "VERTICALS_ALLOWED_PEERS", type: "list", default: nil, defaultText: "unset: any suite certificate",
        allowed: "vertical names, comma-separated",
        doc: "TLS callers admitted, by the vertical their certificate names.")
    /// Internal certificates.
    public static let internalPeers = Setting.text(
        "VERTICALS_INTERNAL_PEERS", type: "list", default: nil, allowed: "vertical names, comma-separated",
        doc: "TLS callers admitted to internal operations.")
    /// Operations open to callers.
    public static let allowedOperations = Setting.text(
        "VERTICALS_ALLOWED_OPERATIONS", type: "list", default: nil, allowed: "operations, comma-separated",
        doc: "The operations callers may reach beside the daemon's built-ins.")
    /// Internal operations.
    public static let internalOperations = Setting.text(
        "VERTICALS_INTERNAL_OPERATIONS", type: "list", default: nil, allowed: "operations, comma-separated",
        doc: "Operations only internal callers may reach.")
    /// Audited operations.
    public static let auditOperations = Setting.text(
        "VERTICALS_AUDIT_OPERATIONS", type: "list", default: nil, allowed: "operations, comma-separated",
        doc: "Operations whose every call is written to the audit log.")
    /// The suite's service users.
    public static let suiteUsers = Setting.text(
        "VERTICALS_SUITE_USERS", type: "list", default: nil, allowed: "NAME=UID, comma-separated",
        doc: "Each vertical's service user, set by the supervisor, so a caller's uid names its vertical.")

    // MARK: Tracing

    /// Tracing on or off.
    public static let tracing = Setting.choice(
        "VERTICALS_TRACING", among: ["on", "off", "1", "0", "true", "false", "yes", "no"], default: "on",
        ignoringCase: true, doc: "off, 0, false or no: record no spans.")
    /// The sampling ratio.
    public static let traceSampleRatio = Setting.number(
        "VERTICALS_TRACE_SAMPLE_RATIO", unit: "ratio", default: 0, atLeast: 0, atMost: 1,
        doc: "The share of requests without a caller's trace that start one.")
    /// The OTLP collector.
    public static let otlpEndpoint = Setting.text(
        "OTEL_EXPORTER_OTLP_ENDPOINT", type: "URL", default: nil, defaultText: "unset: no export",
        allowed: "http://HOST:PORT",
        doc: "The OTLP/HTTP collector spans are sent to (at /v1/traces).")
    /// The OTLP traces endpoint.
    public static let otlpTracesEndpoint = Setting.text(
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", type: "URL", default: nil, defaultText: "unset: no export",
        allowed: "http://HOST:PORT/PATH", doc: "The collector's traces URL, used as it is; wins over the endpoint.")
    /// The export queue.
    public static let otlpQueueSize = Setting.integer(
        "OTEL_BSP_MAX_QUEUE_SIZE", default: 2048, in: 1...Int.max, unit: "spans",
        doc: "Spans queued for export; past it, spans are dropped and counted.")
    /// The export batch.
    public static let otlpBatchSize = Setting.integer(
        "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", default: 512, in: 1...Int.max, unit: "spans",
        doc: "Spans sent in one request.")
    /// The export delay.
    public static let otlpScheduleDelay = Setting.integer(
        "OTEL_BSP_SCHEDULE_DELAY", default: 1000, in: 1...Int.max, unit: "milliseconds",
        doc: "How long spans wait for a batch to fill.")
    /// The export timeout.
    public static let otlpTimeout = Setting.integer(
        "OTEL_EXPORTER_OTLP_TIMEOUT", default: 10_000, in: 1...Int.max, unit: "milliseconds",
        doc: "How long one export request may take.")

    /// Every setting above: what `--check` validates and the reference lists.
    public static let declaration = SettingsDeclaration(
        "Every vertical daemon", summary: "What each daemon reads through the framework (VerticalsServiceKit).",
        [
            runDir, socketDir, listen, endpoint, dependsOn, logLevel, loops, drainSeconds, idleExitSeconds,
            idleExitMinimumUptimeSeconds,
            syncWarnMilliseconds, probeTimeoutSeconds, backupKeep, storeHandover, storeReplica, maxFrameBytes,
            maxInFlight,
            maxConnections,
            maxConnectionsPerPeer, outboundHighWaterBytes, maxOutboundBytes, handshakeTimeoutSeconds,
            tlsHandshakeTimeoutSeconds, maxStartups, maxStartupsPerAddress, frameTimeoutSeconds,
            idleTimeoutSeconds, blockingQueue, blockingStallSeconds, computeNice, tls, tlsCert, tlsKey, tlsCA,
            tlsReloadSeconds,
            allowedUIDs, internalUIDs, allowedGIDs, allowedPeers, internalPeers, allowedOperations, internalOperations,
            auditOperations, suiteUsers, tracing, traceSampleRatio, otlpEndpoint, otlpTracesEndpoint, otlpQueueSize,
            otlpBatchSize, otlpScheduleDelay, otlpTimeout,
        ])
}
