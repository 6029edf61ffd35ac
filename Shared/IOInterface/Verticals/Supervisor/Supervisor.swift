/// The control interface of `svc-supervisor`: what runs, and the levers to start, stop,
/// restart, reload and take the suite down.
///
/// Not a vertical: it is served on `<run dir>/supervisor.sock` (not in the socket folder),
/// so it is listed in ``Contracts/control``, not in ``Contracts/all``. The CLI
/// (`svc-supervisor status`, `start`, …) is its client.
public enum Supervisor: ServiceContract {
    public static let name = "supervisor"
    public static let summary = "Supervision of the suite's daemons: status, start, stop, restart, reload, down."

    /// Every supervised service with its state, pid, uptime, restarts and last exit.
    public static let status = Operation<Empty, StatusList>(
        name, "status", summary: "List every service with its state, pid, uptime, restarts and last exit.",
        errors: [.internal])

    /// Starts a stopped or failed service (after its dependencies are ready); answers at once.
    public static let start = Operation<ServiceName, ServiceStatus>(
        name, "start", summary: "Start a stopped or failed service once its dependencies are ready.",
        errors: [.notFound])

    /// Stops a service (stop signal, then SIGKILL after its stop timeout); answers once it stopped.
    public static let stop = Operation<ServiceName, ServiceStatus>(
        name, "stop", summary: "Stop a service and keep it down until started again.", errors: [.notFound])

    /// Stops a service and starts it again; answers once it was started again.
    public static let restart = Operation<ServiceName, ServiceStatus>(
        name, "restart", summary: "Stop a service, then start it again.", errors: [.notFound])

    /// Re-reads the manifest and applies only the difference.
    public static let reload = Operation<Empty, ReloadResult>(
        name, "reload",
        summary: "Re-read the manifest: start added services, stop removed ones, restart changed ones.",
        errors: [.invalidInput])

    /// Stops every service in reverse dependency order; the supervisor exits after answering.
    public static let down = Operation<Empty, Empty>(
        name, "down", summary: "Stop every service in reverse dependency order, then exit the supervisor.",
        errors: [.internal])

    /// Streams a service's log: its last `lines` lines, then each new line as the supervisor
    /// writes it, until the caller cancels (`svc-supervisor logs -f`).
    public static let logs = StreamOperation<LogsInput, LogLine>(
        name, "logs", summary: "Follow a service's log: its last lines, then each new line as it is written.",
        errors: [.notFound, .invalidInput])

    /// Streams every service's status, then a service's status each time its state changes.
    public static let watch = StreamOperation<Empty, ServiceStatus>(
        name, "watch", summary: "Every service's status now, then each service's status whenever its state changes.",
        errors: [.internal])

    public static let operations = [
        status.descriptor, start.descriptor, stop.descriptor, restart.descriptor, reload.descriptor,
        down.descriptor, logs.descriptor, watch.descriptor,
    ]

    // MARK: Inputs

    /// The Input of ``Supervisor/start``, ``Supervisor/stop`` and ``Supervisor/restart``.
    public struct ServiceName: WireMessage {
        /// The service's name in the manifest, e.g. `identity`.
        public var name: String

        /// Creates the value from its fields.
        public init(name: String) {
            self.name = name
        }

        public static let schema = MessageSchema("supervisor.ServiceName", [.required(1, "name", .string)])
    }

    /// The Input of ``Supervisor/logs``.
    public struct LogsInput: WireMessage {
        /// The service's name in the manifest.
        public var name: String
        /// How many of the log's last lines come first, 0 ... 10,000 (more is `invalidInput`).
        public var lines: Int

        /// The largest ``lines`` accepted.
        public static let maxLines = 10_000

        /// Creates the value from its fields.
        public init(name: String, lines: Int = 0) {
            self.name = name
            self.lines = lines
        }

        public static let schema = MessageSchema(
            "supervisor.LogsInput", [.required(1, "name", .string), .defaulted(2, "lines", .int, .int(0))])
    }

    // MARK: Outputs

    /// One event of ``Supervisor/logs``: one line of the service's log file.
    public struct LogLine: WireMessage {
        /// The line as the file holds it, without its newline: `<RFC 3339 UTC time> <stream> <text>`,
        /// the stream being `stdout`, `stderr` or `supervisor`.
        public var text: String

        /// Creates the value from its fields.
        public init(text: String) {
            self.text = text
        }

        public static let schema = MessageSchema("supervisor.LogLine", [.required(1, "text", .string)])
    }

    /// Where one service is in its life.
    public struct ServiceStatus: WireMessage {
        /// The service's name in the manifest.
        public var name: String
        /// Its state.
        public var state: ServiceState
        /// The main process, while one runs.
        public var pid: Int?
        /// Seconds since the running process started, while one runs.
        public var uptimeSeconds: Double?
        /// Restarts since the supervisor started (not counting starts asked for).
        public var restarts: Int
        /// How the last process ended, e.g. `exited with status 1`, `killed by signal 9`,
        /// `ready timeout after 10 s`; empty before the first exit.
        public var lastExit: String
        /// Whether it is ready (it sent `READY=1`, or needs no readiness and runs).
        public var ready: Bool
        /// The last `STATUS=` it sent, or what the supervisor is waiting for.
        public var statusText: String
        /// When the running process became ready (wall clock), while it is ready.
        public var readySince: Timestamp?
        /// Restarts within the current restart-budget window (the budget's count).
        public var restartsInWindow: Int
        /// Seconds left before the next start, while it waits out its backoff.
        public var backoffRemainingSeconds: Double?
        /// Why the last process ended, as a category; ``lastExit`` has the details.
        public var exitReason: ExitReason?
        /// The running process's resident memory (VmRSS), in bytes.
        public var rssBytes: Int?

        /// Creates the value from its fields.
        public init(
            name: String, state: ServiceState, pid: Int? = nil, uptimeSeconds: Double? = nil, restarts: Int,
            lastExit: String, ready: Bool, statusText: String, readySince: Timestamp? = nil, restartsInWindow: Int = 0,
            backoffRemainingSeconds: Double? = nil, exitReason: ExitReason? = nil, rssBytes: Int? = nil
        ) {
            self.name = name
            self.state = state
            self.pid = pid
            self.uptimeSeconds = uptimeSeconds
            self.restarts = restarts
            self.lastExit = lastExit
            self.ready = ready
            self.statusText = statusText
            self.readySince = readySince
            self.restartsInWindow = restartsInWindow
            self.backoffRemainingSeconds = backoffRemainingSeconds
            self.exitReason = exitReason
            self.rssBytes = rssBytes
        }

        public static let schema = MessageSchema(
            "supervisor.ServiceStatus",
            [
                .required(1, "name", .string),
                .required(2, "state", .enumeration(ServiceState.schema)),
                .optional(3, "pid", .int),
                .optional(4, "uptimeSeconds", .double),
                .required(5, "restarts", .int),
                .required(6, "lastExit", .string),
                .required(7, "ready", .bool),
                .required(8, "statusText", .string),
                .optional(9, "readySince", .timestamp),
                .defaulted(10, "restartsInWindow", .int, .int(0)),
                .optional(11, "backoffRemainingSeconds", .double),
                .optional(12, "exitReason", .enumeration(ExitReason.schema)),
                .optional(13, "rssBytes", .int),
            ])
    }

    /// The Output of ``Supervisor/status``.
    public struct StatusList: WireMessage {
        /// Every service, in start (dependency) order.
        public var services: [ServiceStatus]

        /// Creates the value from its fields.
        public init(services: [ServiceStatus]) {
            self.services = services
        }

        public static let schema = MessageSchema(
            "supervisor.StatusList", [.repeated(1, "services", .message(ServiceStatus.self))])
    }

    /// The Output of ``Supervisor/reload``: what changed, by service name.
    public struct ReloadResult: WireMessage {
        /// Services new in the manifest, now started.
        public var added: [String]
        /// Services gone from the manifest, now stopped.
        public var removed: [String]
        /// Services whose entry changed, now restarted.
        public var changed: [String]
        /// Services left untouched (their processes kept running).
        public var unchanged: [String]

        /// Creates the value from its fields.
        public init(added: [String], removed: [String], changed: [String], unchanged: [String]) {
            self.added = added
            self.removed = removed
            self.changed = changed
            self.unchanged = unchanged
        }

        public static let schema = MessageSchema(
            "supervisor.ReloadResult",
            [
                .repeated(1, "added", .string),
                .repeated(2, "removed", .string),
                .repeated(3, "changed", .string),
                .repeated(4, "unchanged", .string),
            ])
    }

    /// Why a service's last process ended.
    public enum ExitReason: WireEnum {
        /// It exited with status 0 on its own.
        case exit
        /// It exited with a non-zero status or was killed by a signal nobody in the suite sent.
        case crash
        /// It did not send `READY=1` within its ready timeout, and was killed.
        case readyTimeout
        /// It missed its watchdog, and was killed.
        case watchdog
        /// It stopped answering `daemon.health`, and was killed.
        case liveness
        /// It exceeded a resource limit (memory cgroup OOM, CPU seconds).
        case limit
        /// It was stopped: asked for, or restarted with a peer by its restart strategy.
        case stop
        /// Its program could not be started at all.
        case startFailed
        /// A reason this build does not know.
        case unknown(String)

        public static let knownCases: [ExitReason] = [
            .exit, .crash, .readyTimeout, .watchdog, .liveness, .limit, .stop, .startFailed,
        ]
        public static let schema = EnumSchema("supervisor.ExitReason", knownCases)
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .exit: "exit"
            case .crash: "crash"
            case .readyTimeout: "readyTimeout"
            case .watchdog: "watchdog"
            case .liveness: "liveness"
            case .limit: "limit"
            case .stop: "stop"
            case .startFailed: "startFailed"
            case .unknown(let raw): raw
            }
        }
    }

    /// The states of a supervised service.
    public enum ServiceState: WireEnum {
        /// Not running, and not meant to run until started.
        case stopped
        /// Meant to run; waiting for its dependencies to be ready.
        case waiting
        /// Spawned; not ready yet.
        case starting
        /// Running and ready.
        case ready
        /// Asked to stop; waiting for it to exit.
        case stopping
        /// Exited; waiting out the backoff before the next start.
        case backoff
        /// Used up its restart budget (or failed with `restart = never`); stays down until started.
        case failed
        /// A state this build does not know.
        case unknown(String)

        public static let knownCases: [ServiceState] = [
            .stopped, .waiting, .starting, .ready, .stopping, .backoff, .failed,
        ]
        public static let schema = EnumSchema("supervisor.ServiceState", knownCases)
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .stopped: "stopped"
            case .waiting: "waiting"
            case .starting: "starting"
            case .ready: "ready"
            case .stopping: "stopping"
            case .backoff: "backoff"
            case .failed: "failed"
            case .unknown(let raw): raw
            }
        }
    }
}
