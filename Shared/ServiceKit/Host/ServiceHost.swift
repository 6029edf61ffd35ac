#if canImport(Glibc)
import Glibc
#endif
import Logging
import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// Serves one vertical's operations on its Unix socket: the daemon runtime.
///
/// It adopts the listening socket a service manager hands over (`LISTEN_FDS`) or binds
/// `<socket dir>/<name>.sock`, answers every request with its Output or a typed error,
/// tells the manager `READY=1` once serving, and on SIGTERM drains in-flight requests
/// before it exits. `main.swift` of a vertical reads like a table of contents:
///
/// Daemons reach it through ``DaemonMain`` (a ``ServiceGroup`` stops it first on SIGTERM); tests may run one in-process.
///
/// Loop-confined after ``start()``: its mutable state is touched only on `loop`'s thread
/// (every entry point either runs there or hops with `loop.execute`), which is what makes
/// the `@unchecked Sendable` sound.
public final class ServiceHost: @unchecked Sendable {
    /// The host's settings.
    public let configuration: HostConfiguration
    /// The loop everything runs on.
    public let loop: EventLoop
    /// The logger of the host, labelled with the vertical's name.
    public let logger: Logger
    let router: Router
    /// Each routed operation's route and metric handles, by name: one lookup per request.
    let served: [String: ServedOperation]
    /// What the host counts: requests, errors and latency per operation, connections, queue depth.
    let metrics: HostMetrics
    let timers: TimerQueue
    let notifier: Notifier

    private var listener: UnixListener?
    private(set) var connections: [UInt64: ServerConnection] = [:]
    /// Checks connections against the timeouts; runs only while there are connections.
    var sweepTimer: LoopTimer?
    /// Set while the sweep rests until the earliest idle deadline (see `+Timeouts`).
    let sweepRest = SweepRest()
    private var watchdog: LoopTimer?
    private(set) var isDraining = false
    private var drainTimer: UInt64?
    private var stopWaiters: [@Sendable () -> Void] = []
    private var stopped = false

    /// A host for `router`'s vertical, on `loop`.
    public init(configuration: HostConfiguration, router: Router, loop: EventLoop, logger: Logger? = nil) {
        precondition(router.service == configuration.name, "router for \(router.service) served as \(configuration.name)")
        self.configuration = configuration
        var router = router
        let names = (router.operations + Daemon.operations).map { operation in operation.fullName }
        let metrics = HostMetrics(operationNames: names, loop: loop)
        Builtins.install(into: &router, configuration: configuration, metrics: metrics)
        self.router = router
        self.metrics = metrics
        self.served = ServedOperation.table(router, metrics: metrics, access: configuration.access)
        self.loop = loop
        self.logger = logger ?? Logger(label: configuration.name)
        self.timers = TimerQueue(loop: loop)
        self.notifier = Notifier(environment: configuration.environment)
        // Unowned: the metrics live no longer than their host; called on the loop (see HostMetrics).
        metrics.countInFlight { [unowned self] in self.requestsInFlight }
    }

    /// Starts listening and serving; returns once the socket is ready. Throws a typed
    /// ``EventLoopError`` when the socket cannot be had (path too long, address in use).
    public func start() async throws {
        try await loop.submit { [self] in try self.startOnLoop() }
    }

    /// Where the host listens: the bound path, or `nil` for an inherited socket.
    public var listeningPath: String? { listener?.path }

    /// Stops accepting, lets in-flight requests finish (up to the drain timeout),
    /// closes every connection, and returns once all is closed.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { [self] in
                if stopped {
                    continuation.resume()
                    return
                }
                stopWaiters.append { continuation.resume() }
                beginDrain()
            }
        }
    }

    // MARK: Loop-thread internals

    private func startOnLoop() throws {
        loop.preconditionInEventLoop()
        let options = configuration.limits.connectionOptions
        for problem in configuration.access.unresolved { logger.warning("ignoring an allow-list entry: \(problem)") }
        let listener: UnixListener
        if let activation = configuration.activation, let fd = activation.listeningFD(for: configuration.name) {
            activation.consume()
            listener = try UnixListener.adopt(fd: fd, on: loop, options: options)
            logger.info("serving \(configuration.name) on inherited fd \(fd)")
        } else {
            try Self.makeDirectory(configuration.socketDirectory.path)
            listener = try UnixListener.bind(path: configuration.socketPath, on: loop, mode: 0o660, options: options)
            logger.info("serving \(configuration.name) on \(configuration.socketPath)")
        }
        listener.start { [weak self] connection in self?.accepted(connection) }
        self.listener = listener
        notifier.notify("READY=1", "STATUS=serving \(router.operations.count) operations", "MAINPID=\(getpid())")
        startWatchdog()
    }

    private func accepted(_ connection: Connection) {
        guard !isDraining else {
            connection.close()
            return
        }
        if let refusal = admissionRefusal(for: connection) {
            refuse(connection, refusal)
            return
        }
        let server = ServerConnection(connection: connection, host: self)
        connections[connection.id] = server
        metrics.connectionsAccepted.increment()
        metrics.connectionsOpen.increment()
        server.start()
        startSweeping()
    }

    func connectionClosed(_ server: ServerConnection) {
        connections[server.connection.id] = nil
        stopSweepingIfIdle()
        metrics.connectionsOpen.decrement()
        if isDraining { finishDrainIfIdle() }
    }

    /// Requests being served on every connection (loop thread).
    var requestsInFlight: Int {
        connections.values.reduce(0) { $0 + $1.inFlightCount }
    }

    func requestFinished() {
        if isDraining { finishDrainIfIdle() }
    }

    private func beginDrain() {
        guard !isDraining else {
            finishDrainIfIdle()
            return
        }
        isDraining = true
        for server in connections.values { server.beginDraining() }
        notifier.notify("STOPPING=1", "STATUS=draining")
        listener?.close()
        listener = nil
        drainTimer = timers.schedule(at: .now + configuration.drainTimeout) { [weak self] in
            guard let self else { return }
            let left = requestsInFlight
            logger.warning("drain timeout: abandoning \(left) in-flight requests")
            finishDrain()
        }
        finishDrainIfIdle()
    }

    private func finishDrainIfIdle() {
        guard !stopped, connections.values.allSatisfy({ $0.inFlightCount == 0 }) else { return }
        finishDrain()
    }

    private func finishDrain() {
        guard !stopped else { return }
        stopped = true
        for server in connections.values { server.connection.closeAfterFlush() }
        watchdog?.close()
        watchdog = nil
        sweepTimer?.close()
        sweepTimer = nil
        if let drainTimer { timers.cancel(drainTimer) }
        timers.close()
        let waiters = stopWaiters
        stopWaiters.removeAll()
        logger.info("stopped")
        for waiter in waiters { waiter() }
    }

    private func startWatchdog() {
        guard let text = configuration.environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 else { return }
        if let pid = configuration.environment["WATCHDOG_PID"], Int32(pid) != getpid() { return }
        let interval = Duration.microseconds(usec / 2)
        let timer = LoopTimer(loop: loop)
        timer.start(after: interval, repeating: interval) { [weak self] in self?.notifier.notify("WATCHDOG=1") }
        watchdog = timer
    }

    private static func makeDirectory(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o750) != 0 && errno != EEXIST {
                throw ServiceError(.internal, "cannot create socket directory \(current): \(String(cString: strerror(errno)))")
            }
        }
    }
}
