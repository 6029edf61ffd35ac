#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsObservability
import VerticalsWire

/// Serves one vertical's operations on its Unix socket or TCP endpoint: the daemon runtime.
///
/// It adopts the listening socket a service manager hands over (`LISTEN_FDS`, Unix or TCP),
/// else binds what `VERTICALS_LISTEN` names (a TCP host name: its first address), else
/// `<socket dir>/<name>.sock`; answers every request with its Output or a typed error,
/// tells the manager `READY=1` once serving, and on SIGTERM drains in-flight requests
/// before it exits. `main.swift` of a vertical reads like a table of contents:
///
/// Daemons reach it through ``DaemonMain`` (a ``DaemonLifecycle`` stops it first on SIGTERM); tests may run one in-process.
///
/// With ``HostConfiguration/loops`` above 1 it serves on that many event loops: it accepts on
/// `loop` and hands each connection to the loop with the fewest, where a shard of the host (an
/// instance of this class for that loop, see `ServiceHost+Loops.swift`) serves it for its life.
///
/// Loop-confined after ``start()``: each instance's mutable state is touched only on its
/// `loop`'s thread (every entry point either runs there or hops with `loop.execute`), and what
/// the loops share is immutable, atomic (`HostCensus`) or locked (metrics, traces), which is
/// what makes the `@unchecked Sendable` sound.
public final class ServiceHost: @unchecked Sendable {
    /// The host's settings.
    public let configuration: HostConfiguration
    /// The loop this host accepts on (and, with one loop, serves every connection on).
    public let loop: EventLoop
    /// The logger of the host, labelled with the vertical's name.
    public let logger: Logger
    let router: Router
    /// Each routed operation's route and metric handles, by name: one lookup per request.
    let served: [String: ServedOperation]
    /// ``served`` by the bytes of the names.
    let servedNames: ServedNames
    /// What the host's loops count together: connections, queue depth, and the exposition.
    let metrics: HostMetrics
    /// Requests, errors and latency per operation on this loop (added up over the loops when read).
    let counts: LoopCounts
    /// Where the host's spans go and its ring of recent spans (nil: `VERTICALS_TRACING=off`).
    public let traces: TraceRecorder?
    /// This loop's lane of ``traces``, where its requests' spans are recorded.
    let traceLane: TraceLane?
    let timers: TimerQueue
    let notifier: Notifier
    /// What every loop's host shares: the connections open on all of them.
    let census: HostCensus
    /// The host that accepts, for a shard serving another loop; nil for that host itself.
    unowned let primary: ServiceHost?
    /// The shards serving the other loops (on the accepting host only; empty with one loop).
    var shards: [ServiceHost] = []
    /// Connections open on this loop, read by the accepting host's picker on its own loop.
    let openHere = Atomic<Int>(0)
    /// Every loop of the host, for `daemon.health` (set by the accepting host as it starts its shards).
    var loops: HostLoops?

    private var listener: StreamListener?
    /// The descriptors this process may hold, once ``start()`` raised its soft limit: written
    /// there before the loop is asked to listen, read on the loop after (its queue orders them).
    var descriptorLimit: Int?
    /// The listener's TLS files, looked at again when `tlsWatch` sees a change (mutual TLS on TCP only).
    private var tlsReloader: TLSReloader?
    private var tlsWatch: TLSFileWatch?
    /// Connections open on this loop, in no order. Each knows its place (``ServerConnection/slot``),
    /// so one that closes is replaced by the last: no hashing, and no dictionary keyed by `UInt64`,
    /// whose storage's first instantiation in a process (at the first connection) had the Swift
    /// runtime look `UInt64: Hashable` up in every conformance record of the binary.
    private(set) var connections: [ServerConnection] = []
    /// Checks connections against the timeouts; runs only while there are connections.
    var sweepTimer: LoopTimer?
    /// Set while the sweep rests until the earliest idle deadline (see `+Timeouts`).
    let sweepRest = SweepRest()
    private var watchdog: LoopTimer?
    /// Serving, draining, closing its last connections or drained, and the shards still draining:
    /// every step of a stop is an event of the machine, and what it answers is carried out by
    /// ``perform(_:)``.
    var stopMachine: HostStopStateMachine
    private var drainTimer: TimerQueue.Handle?
    private var stopWaiters: [@Sendable () -> Void] = []
    /// The idle exit's clock, while the host serves with ``HostConfiguration/idleExit`` set
    /// (the accepting host's; each shard holds the same, set before its first connection).
    var idleExit: IdleExit?
    /// Fired when the host ends itself because it was idle; ``HostPart`` waits on it beside shutdown.
    let idleExitSignal = ShutdownSignal()

    /// A host for `router`'s vertical, on `loop`.
    public convenience init(configuration: HostConfiguration, router: Router, loop: EventLoop, logger: Logger? = nil) {
        precondition(
            router.service == configuration.name, "router for \(router.service) served as \(configuration.name)")
        var router = router
        let metrics = HostMetrics()
        let traces =
            configuration.tracing.enabled
            ? configuration.traceRecorder
                ?? TraceRecorder(
                    service: configuration.name, sampling: configuration.tracing, lanes: configuration.loops)
            : nil
        let loops = HostLoops()
        Builtins.install(into: &router, configuration: configuration, metrics: metrics, traces: traces, loops: loops)
        self.init(
            configuration: configuration, router: router, metrics: metrics, traces: traces, loop: loop,
            logger: logger ?? Logger(label: configuration.name), primary: nil, census: HostCensus(), lane: 0)
        self.loops = loops
        // Unowned: the metrics live no longer than their host (summed over its loops, see +Loops).
        metrics.countLoad { [unowned self] in await self.sampleLoad() }
        if let traces { metrics.countExports { traces.exportStatistics } }
    }

    /// A host on `loop` serving `router` (built-ins installed) with shared `metrics`, `traces`
    /// and `census`: the accepting host (`primary` nil, loop 0) or a shard of it (loop `lane`).
    init(
        configuration: HostConfiguration, router: Router, metrics: HostMetrics, traces: TraceRecorder?,
        loop: EventLoop, logger: Logger, primary: ServiceHost?, census: HostCensus, lane: Int
    ) {
        self.configuration = configuration
        self.router = router
        self.metrics = metrics
        self.traces = traces
        self.traceLane = traces?.lane(lane)
        let counts = LoopCounts(operationNames: router.routes.keys)
        self.counts = counts
        self.served = ServedOperation.table(router, counts: counts, access: configuration.access)
        self.servedNames = ServedNames(served)
        self.loop = loop
        self.logger = logger
        self.timers = TimerQueue(loop: loop)
        self.notifier = Notifier(environment: configuration.environment)
        self.primary = primary
        self.census = census
        self.stopMachine = HostStopStateMachine(isShard: primary != nil)
    }

    /// Whether the host stopped accepting.
    var isDraining: Bool { stopMachine.isDraining }

    /// Starts listening and serving; returns once the socket is ready. Throws a typed
    /// `EventLoopError` when the socket cannot be had (path too long, address in use).
    ///
    /// - Throws: ``LoopCountError`` when `VERTICALS_LOOPS` is not a number of loops.
    public func start() async throws {
        if let problem = configuration.loopsProblem { throw problem }
        descriptorLimit = DescriptorLimit.raiseToHard()
        // A TCP host name is resolved here, off the loop (a blocking lookup); the loop binds the address.
        let address = try resolveConfiguredTCP()
        try startShards()
        do {
            try await loop.submit { [self] in try self.startOnLoop(tcpAddress: address) }
        } catch {
            stopShardLoops()
            throw error
        }
    }

    /// Where the host listens: the bound path, or `nil` for an inherited socket or TCP.
    public var listeningPath: String? { listener?.path }

    /// Where the host listens, once started: `unix:PATH`, or `tcp:HOST:PORT` with the port the
    /// kernel chose for port 0 (nil for an inherited Unix socket).
    public var listeningEndpoint: SocketEndpoint? {
        get async {
            await (try? loop.submit { [self] in listener?.localEndpoint }) ?? nil
        }
    }

    /// Stops accepting, lets in-flight requests finish (up to the drain timeout), closes every
    /// connection (handing each over, see `ServerConnection.handOver`), and returns once
    /// all are closed.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { [self] in
                stopWaiters.append { continuation.resume() }
                perform(stopMachine.stopRequested())
            }
        }
        stopShardLoops()
    }

    // MARK: Loop-thread internals

    /// The inherited fd to serve, if the manager handed one over.
    private var inheritedFD: Int32? {
        configuration.activation?.listeningFD(for: configuration.name)
    }

    /// The numeric address of `VERTICALS_LISTEN`'s TCP endpoint when that is what the host will
    /// serve (no inherited socket), checked against `TransportSecurity` first.
    private func resolveConfiguredTCP() throws -> SocketEndpoint? {
        if let problem = configuration.listenProblem {
            throw ServiceError(.invalidInput, "VERTICALS_LISTEN: \(problem)")
        }
        guard inheritedFD == nil, let endpoint = configuration.listen, case .tcp(let host, let port) = endpoint else {
            return nil
        }
        if let refusal = configuration.security.refusal(of: endpoint, to: "serve \(configuration.name)") {
            throw ServiceError(.permissionDenied, refusal)
        }
        guard let address = try TCPSocket.resolve(host: host, port: port).first else {
            throw ServiceError(.invalidInput, "VERTICALS_LISTEN: \(host) has no address")
        }
        return address
    }

    /// What `VERTICALS_ALLOWED_OPERATIONS` names that grants nothing: an operation this daemon
    /// does not serve, or an operator-only one (which no route can grant).
    func routeProblems() -> [String] {
        guard let table = configuration.access.allowedOperations else { return [] }
        var problems: [String] = []
        for (caller, operations) in table.sorted(by: { $0.key < $1.key }) {
            for operation in operations.sorted() where operation != "*" {
                let full = operation.hasPrefix(Daemon.name + ".") ? operation : "\(configuration.name).\(operation)"
                if let served = served[full] {
                    if served.operatorOnly {
                        problems.append(
                            "\(PeerAccess.allowedOperationsVariable) grants \(caller) \(full), which is operator-only: "
                                + "ignored (only the operator may call it; drop it from \(caller)'s depends_on)")
                    }
                } else {
                    problems.append(
                        "\(PeerAccess.allowedOperationsVariable) grants \(caller) \(full), which \(configuration.name) "
                            + "does not serve (check \(caller)'s depends_on)")
                }
            }
        }
        return problems
    }

    private func startOnLoop(tcpAddress: SocketEndpoint?) throws {
        loop.preconditionInEventLoop()
        let options = configuration.limits.connectionOptions
        for problem in configuration.access.unresolved { logger.warning("ignoring an allow-list entry: \(problem)") }
        for problem in routeProblems() { logger.warning("\(problem)") }
        let listener: StreamListener
        if let activation = configuration.activation, let fd = inheritedFD {
            activation.consume()
            listener = try StreamListener.adopt(fd: fd, on: loop, options: options)
            logger.info(
                "serving \(configuration.name) on inherited fd \(fd)\(listener.localEndpoint.map { " (\($0))" } ?? "")")
        } else if let tcpAddress {
            listener = try StreamListener.bind(endpoint: tcpAddress, on: loop, options: options)
            logger.info("serving \(configuration.name) on \(listener.localEndpoint.map { "\($0)" } ?? "TCP")")
        } else if case .unix(let path)? = configuration.listen {
            listener = try StreamListener.bind(path: path, on: loop, mode: 0o660, options: options)
            logger.info("serving \(configuration.name) on \(path)")
        } else {
            try Self.makeDirectory(configuration.socketDirectory.path)
            listener = try StreamListener.bind(path: configuration.socketPath, on: loop, mode: 0o660, options: options)
            logger.info("serving \(configuration.name) on \(configuration.socketPath)")
        }
        listener.onAcceptError = { [weak self] error in self?.acceptFailed(error) }
        if listener.transport == .tcp, let endpoint = listener.localEndpoint {
            // An inherited TCP socket passes the same rule as a bound one.
            if let refusal = configuration.security.refusal(of: endpoint, to: "serve \(configuration.name)") {
                listener.close()
                throw ServiceError(.permissionDenied, refusal)
            }
            if let files = configuration.security.files, configuration.security.usesTLS {
                do {
                    try startTLS(listener, files: files)
                } catch {
                    listener.close()
                    throw error
                }
                logger.info("serving \(configuration.name) on \(endpoint) with mutual TLS 1.3 (\(files.certificate))")
            } else {
                logger.warning("\(configuration.security.servingWarning(endpoint))")
            }
        }
        // Only plain TCP is worth a warning: with the TLS files every TCP call is mutual TLS.
        for (key, endpoint) in configuration.socketDirectory.endpoints.sorted(by: { $0.key < $1.key })
        where endpoint.transport == .tcp && !configuration.security.usesTLS {
            logger.warning("\(configuration.security.callingWarning(key.lowercased(), endpoint))")
        }
        for problem in configuration.socketDirectory.endpointProblems.values.sorted() { logger.error("\(problem)") }
        if let after = configuration.idleExit {
            let idleExit = IdleExit(after: after, minimumUptime: configuration.idleExitMinimumUptime, loop: loop) {
                [weak self] in self?.exitIdle() ?? true
            }
            self.idleExit = idleExit
            // Read by a shard on its loop only once a connection reaches it, through that loop's
            // queue, whose lock orders this write before the read.
            for shard in shards { shard.idleExit = idleExit }
        }
        checkDescriptorBudget(tls: listener.tls != nil)
        listen(listener)
        self.listener = listener
        notifier.notify("READY=1", "STATUS=serving \(router.operations.count) operations", "MAINPID=\(getpid())")
        startWatchdog()
    }

    /// The idle exit is due: stops accepting (callers from now on wait in the backlog of the
    /// socket the service manager holds, for the next process), closes every connection with the
    /// idle error (retryable, nothing on it unread), and ends the host, so the daemon exits 0.
    /// False, to be asked again a little later, while a frame is still arriving on a connection.
    private func exitIdle() -> Bool {
        guard !isDraining else { return true }
        if connections.contains(where: { $0.connection.bufferedInboundByteCount > 0 }) { return false }
        let idle = configuration.idleExit ?? .zero
        logger.info("idle for \(idle) (no request in flight, no open stream): exiting")
        // Said first, so the service manager stops its liveness checks before the connections close.
        notifier.notify("STOPPING=1", "STATUS=idle for \(idle): exiting")
        for server in connections { server.close(ServerConnection.idleError(idle)) }
        closeShardsForIdleExit(idle)
        beginDrain()
        idleExitSignal.fire()
        return true
    }

    /// A connection accepted for this loop (counted in ``openHere`` already): admitted and served here, or refused.
    func accepted(_ connection: Connection) {
        guard !isDraining else {
            openHere.subtract(1, ordering: .relaxed)
            connection.close()
            return
        }
        let caller = connection.callerKey
        if let refusal = admissionRefusal(for: connection, caller: caller) {
            openHere.subtract(1, ordering: .relaxed)
            refuse(connection, refusal)
            return
        }
        let server = ServerConnection(connection: connection, host: self, caller: caller)
        server.slot = connections.count
        connections.append(server)
        metrics.connectionsAccepted.increment()
        metrics.connectionsOpen.increment()
        server.start()
        startSweeping()
    }

    func connectionClosed(_ server: ServerConnection) {
        forget(server)
        openHere.subtract(1, ordering: .relaxed)
        census.release()
        census.release(caller: server.caller)
        stopSweepingIfIdle()
        metrics.connectionsOpen.decrement()
        perform(stopMachine.connectionClosed(remaining: connections.count))
    }

    /// Takes `server` out of ``connections``: the last one takes its place.
    private func forget(_ server: ServerConnection) {
        let slot = server.slot
        guard slot < connections.count, connections[slot] === server else { return }
        let last = connections.removeLast()
        if last !== server {
            connections[slot] = last
            last.slot = slot
        }
    }

    /// Requests being served on every connection (loop thread).
    var requestsInFlight: Int {
        connections.reduce(0) { $0 + $1.inFlightCount }
    }

    func requestFinished() {
        perform(stopMachine.requestFinished())
    }

    /// Stops accepting and drains (SIGTERM, the idle exit, ``stop()``).
    func beginDrain() {
        perform(stopMachine.drainRequested())
    }

    /// The drain timeout passed: what is still in flight on this loop is abandoned.
    func timeOutDrain() {
        let left = requestsInFlight
        let actions = stopMachine.drainEnded(connectionsOpen: connections.count)
        if !actions.isEmpty { logger.warning("drain timeout: abandoning \(left) in-flight requests") }
        perform(actions)
    }

    /// A shard finished draining (on the accepting host's loop).
    func shardDrained() {
        perform(stopMachine.shardDrained())
    }

    /// Carries out what the stop's machine answered, in the order ``HostStopStateMachine/Actions`` lists.
    private func perform(_ actions: HostStopStateMachine.Actions) {
        guard !actions.isEmpty else { return }
        if actions.contains(.startDrain) { startDrain() }
        if actions.contains(.finishIfIdle), connections.allSatisfy({ $0.inFlightCount == 0 }) {
            perform(stopMachine.drainEnded(connectionsOpen: connections.count))
        }
        if actions.contains(.finishDrain) { finishDrain() }
        if actions.contains(.tellAcceptingHost), let primary {
            timers.close()
            primary.loop.execute { primary.shardDrained() }
        }
        if actions.contains(.finishStop) { finishStop() }
        if actions.contains(.resumeStopWaiters) { resumeStopWaiters() }
    }

    private func startDrain() {
        for server in connections { server.beginDraining() }
        if primary == nil { notifier.notify("STOPPING=1", "STATUS=draining") }
        drainShards()
        listener?.close()
        listener = nil
        tlsWatch?.close()
        tlsWatch = nil
        // The accepting host's timer ends every loop's drain (see `timeOutShards`).
        if primary == nil {
            drainTimer = timers.schedule(at: .now + configuration.drainTimeout) { [weak self] in
                guard let self else { return }
                timeOutShards()
                timeOutDrain()
            }
        }
    }

    private func finishDrain() {
        // A connection closed with a reason (handed over, idle) lingers until its client has read
        // it and hung up, at most its grace: the process must not end under it, or a client that
        // writes meanwhile sees its write fail instead of the reason that makes it send again.
        for server in connections where !server.isClosing { server.connection.closeAfterFlush() }
        watchdog?.close()
        watchdog = nil
        if primary == nil { idleExit?.close() } // a shard's is the accepting host's, on its loop
        idleExit = nil
        sweepTimer?.close()
        sweepTimer = nil
    }

    /// This host and every shard finished draining (accepting host's loop), once.
    private func finishStop() {
        if let drainTimer { timers.cancel(drainTimer) }
        drainTimer = nil
        timers.close()
        logger.info("stopped")
    }

    /// Ends ``stop()``: every loop is drained.
    private func resumeStopWaiters() {
        let waiters = stopWaiters
        stopWaiters.removeAll()
        for waiter in waiters { waiter() }
    }

    /// Mutual TLS on `listener` from `files`, looked at again whenever their folders change
    /// (`TLSFileWatch`): rotated files serve new connections; established ones keep their session.
    private func startTLS(_ listener: StreamListener, files: TLSFiles) throws {
        let reloader = TLSReloader(files: files, role: .server)
        let context: TLSContext
        do {
            context = try reloader.current().context
        } catch {
            throw ServiceError(.invalidInput, "cannot serve TLS: \(error)")
        }
        let handshakeTimeout = configuration.limits.tlsHandshakeTimeout
        let metrics = metrics
        listener.useStartupGate(
            StartupGate(configuration.limits.startups) { metrics.connectionsDropped.increment() })
        listener.useTLS(context, handshakeTimeout: handshakeTimeout)
        tlsReloader = reloader
        let watch = TLSFileWatch(files: files, environment: configuration.environment, loop: loop) { [weak self] in
            guard let self, let listener = self.listener, let reloader = self.tlsReloader else { return }
            do {
                let (context, changed) = try reloader.current()
                guard changed else { return }
                listener.useTLS(context, handshakeTimeout: handshakeTimeout)
                self.logger.info("reloaded the TLS certificate \(files.certificate)")
            } catch {
                self.logger.error("keeping the TLS certificate in use: \(error)")
            }
        }
        logger.info("TLS files looked at again \(watch.description)")
        tlsWatch = watch
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
        if let failed = FolderPath.make(path, mode: 0o750) {
            throw ServiceError(.internal, "cannot create socket directory \(failed.folder): \(failed.reason)")
        }
    }
}
