#if canImport(Glibc)
import Glibc
#endif
import Logging
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// Supervises the services of a ``Manifest`` on one `EventLoop`: binds their sockets, starts
/// them in dependency order once their dependencies are ready, restarts them with backoff
/// inside a restart budget, and stops them in reverse order. Everything is driven by loop
/// events — a child's exit (libuv), a datagram on the notify socket, a timer — never by polling,
/// so an idle supervisor sleeps in `epoll_wait`.
///
/// ```swift
/// let engine = SupervisorEngine(manifest: manifest, configuration: configuration, loop: loop)
/// try await engine.start()            // binds, cleans up leftovers, starts everything
/// let services = await engine.status()
/// await engine.stopAll()              // reverse dependency order
/// await engine.close()
/// ```
///
/// Per service, a state machine (`ServiceStateMachine`, reported as `Supervisor/ServiceState`),
/// which decides every transition; the engine feeds it events and performs its actions:
/// `stopped`/`failed` → (start) `waiting` → (dependencies ready) `starting` → (`READY=1`, or at
/// once with `readiness = none`) `ready`; an exit that the policy restarts → `backoff` → `waiting`…;
/// `start = "on-demand"`: `idle` (socket watched) → (a caller connects) `waiting`/`starting`…, and
/// back to `idle` after a clean exit (its `idle_exit`);
/// more restarts than the budget allows within its window → `failed`; stop → `stopping` → `stopped`.
/// A ready timeout or a missed watchdog kills the process group and counts as a failed exit.
///
/// The engine's isolation is its loop: the actor's executor is `loop`. The callbacks it gives its
/// handles (child exit and output, timers, the notify socket, the sockets it watches for demand)
/// are closures made inside the actor, so the compiler isolates them to it, and the handles call
/// them on the loop thread, where the actor runs. Each callback holds the engine until its handle
/// closes (``close()``, or the loop's shutdown).
///
/// Call it while its loop runs: once the loop has stopped, ``stopAll()`` and ``close()`` return
/// at once, but any other call waits for ever, as the loop runs nothing more.
public actor SupervisorEngine {
    /// The loop everything runs on: the actor's executor.
    public nonisolated let loop: EventLoop
    /// Files and programs.
    public nonisolated let configuration: EngineConfiguration
    let logger: Logger

    /// The services this host runs (``Manifest/runnable``: remote ones left out).
    var manifest: Manifest
    /// The whole manifest, remote services included: the graph of who may call whom. A service
    /// here is called by remote ones too (its `VERTICALS_ALLOWED_PEERS`) and calls remote ones
    /// (its `VERTICALS_DEPENDS_ON`), which ``manifest`` no longer names.
    var routes: Manifest
    /// Every TCP endpoint of the whole manifest, remote services' too: each child gets them as
    /// `VERTICALS_ENDPOINT_<NAME>`.
    var peerEndpoints: [String: SocketEndpoint] = [:]
    var order: [String] = []
    var units: [String: ServiceUnit] = [:]
    var notifySocket: NotifySocket?
    var observers: [@Sendable (Event) -> Void] = []
    /// Followers of every service's state (``Supervisor/watch``), by id; and the next id to give
    /// a follower of states or of a log.
    var stateFollowers: [UInt64: (Supervisor.ServiceStatus) -> Void] = [:]
    var nextFollowerID: UInt64 = 1
    var isClosed = false
    /// Per-service cgroups for memory and cpu limits; looked for when a service first has one.
    var cgroupStorage: Cgroups?
    var cgroups: Cgroups {
        if let cgroupStorage { return cgroupStorage }
        let cgroups = Cgroups()
        cgroupStorage = cgroups
        return cgroups
    }
    /// Calls `daemon.health` for liveness checks: one connection per checked service, kept.
    /// Made on the first check, so a suite without liveness checks never has one.
    var livenessClient: ServiceClient?
    var healthClient: ServiceClient {
        if let livenessClient { return livenessClient }
        var sockets = SocketDirectory(configuration.runDirectory.socketDirectory)
        for (name, endpoint) in peerEndpoints { sockets.endpoints[SocketDirectory.endpointKey(for: name)] = endpoint }
        // Over mutual TLS the supervisor checks liveness as the operator, whom every service with
        // a certificates folder admits (ServiceAccounts.applyCertificates).
        if let folder = manifest.services.lazy.compactMap(\.certificates).first {
            let own = "\(folder)/\(ServiceAccounts.operatorPeer)"
            sockets.tls = TLSFiles(certificate: "\(own)/tls.crt", key: "\(own)/tls.key", authority: "\(own)/ca.crt")
        }
        let client = ServiceClient(loop: loop, sockets: sockets, logger: Logger(label: "supervisor.liveness"))
        livenessClient = client
        return client
    }

    /// One state change, for tests and tools that watch the engine.
    public struct Event: Sendable, CustomStringConvertible {
        /// The service.
        public let service: String
        /// Its new state.
        public let state: Supervisor.ServiceState
        /// Its process, while one runs.
        public let pid: Int32?
        /// When it happened.
        public let at: ContinuousClock.Instant

        public var description: String { "\(service) \(state)\(pid.map { " pid \($0)" } ?? "")" }
    }

    /// An engine for `manifest`; nothing happens until ``start()``.
    public init(manifest: Manifest, configuration: EngineConfiguration, loop: EventLoop, logger: Logger? = nil) {
        self.manifest = manifest.runnable
        self.routes = manifest
        self.peerEndpoints = manifest.endpoints
        self.configuration = configuration
        self.loop = loop
        self.logger = logger ?? Logger(label: "supervisor")
    }

    /// The loop, as the actor's serial executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// Calls `observer` on the loop thread for every state change from now on.
    public func observe(_ observer: @escaping @Sendable (Event) -> Void) async throws {
        observers.append(observer)
    }

    /// Prepares the run directory, kills what an earlier supervisor left running (its pid
    /// records), binds the notify socket and every service's socket, then starts every service
    /// in dependency order. Throws when a file or socket cannot be had, the manifest has a cycle,
    /// or (services run as their own users) a user cannot be made or cannot reach what it needs.
    public func start() async throws {
        let run = configuration.runDirectory
        try run.prepare()
        writeSecretRecipients()
        killLeftovers()
        order = try StartOrder.of(manifest)
        notifySocket = try NotifySocket(path: run.notifySocket, loop: loop) { message in
            self.received(message)
        }
        try prepareUsers(manifest)
        for spec in manifest.services {
            units[spec.name] = makeUnit(spec)
        }
        for name in order {
            if let unit = units[name] { try bindSocket(unit) }
        }
        try checkSocketsReach(manifest)
        for name in order {
            if let unit = units[name] { activate(unit) }
        }
    }

    /// Every service's status, in start order.
    public func status() async throws -> [Supervisor.ServiceStatus] {
        let now = ContinuousClock.now
        return order.compactMap { units[$0]?.status(now: now) }
    }

    /// Starts `name` (after its dependencies are ready); a failed service gets a fresh budget.
    /// Answers at once with its status; `notFound` for an unknown name.
    ///
    /// The socket an operator's stop removed is bound again first, so callers from now on wait
    /// in its backlog while the service waits for its dependencies and starts.
    public func startService(_ name: String) async throws -> Supervisor.ServiceStatus {
        let unit = try unit(name)
        try refuseWhileRestoring(unit, "start")
        do { try bindSocket(unit) } catch {
            throw ServiceError(.unavailable, "cannot start \(name): \(error)")
        }
        want(unit, fresh: true)
        return unit.status(now: .now)
    }

    /// Stops `name` as the operator asked, and answers once its process is gone.
    ///
    /// Its listening socket is closed and its file removed first, so a caller's connect fails
    /// at once (`unavailable`, naming the vertical) instead of waiting in a backlog nobody will
    /// accept from until its deadline. A crash or `restart` keeps the socket: callers then wait
    /// for the next process, as they should.
    public func stopService(_ name: String) async throws -> Supervisor.ServiceStatus {
        let unit = try unit(name)
        releaseSocket(unit)
        await withCheckedContinuation { continuation in
            stop(unit) { continuation.resume() }
        }
        // Its Litestream was told to stop first; answered once it is gone too.
        await replicaGone(unit)
        return unit.status(now: .now)
    }

    /// Stops `name`, then starts it again; answers once the new process was started. A stop or
    /// `down` asked before the old process is gone wins: it is not started again. The socket an
    /// operator's stop removed is bound again first, as ``startService(_:)`` binds it.
    public func restartService(_ name: String) async throws -> Supervisor.ServiceStatus {
        let unit = try unit(name)
        try refuseWhileRestoring(unit, "restart")
        do { try bindSocket(unit) } catch {
            throw ServiceError(.unavailable, "cannot restart \(name): \(error)")
        }
        return await withCheckedContinuation { continuation in
            unit.stopWaiters.append {
                self.transition(unit) { $0.restartDue() }
                continuation.resume(returning: unit.status(now: .now))
            }
            transition(unit) { $0.restartRequested() }
        }
    }

    /// Stops every service, dependents before their dependencies, and returns once all are down.
    ///
    /// Returns at once when the loop has stopped already (the children went with it): it enters
    /// the engine through `loop.submit`, which says so, where a plain call would wait for ever
    /// for a loop that no longer runs anything.
    public nonisolated func stopAll() async {
        let names: [String]
        do {
            names = try await loop.submit { self.assumeIsolated { engine in engine.beginShutdown() } }
        } catch {
            return // the loop is gone, and the children with it
        }
        for name in names {
            _ = try? await stopService(name)
        }
    }

    /// Tells every unit the supervisor shuts down; the names to stop, dependents first.
    private func beginShutdown() -> [String] {
        for unit in units.values { transition(unit) { $0.shutdownBegun() } }
        return order.reversed()
    }

    /// Closes the notify socket, the listening sockets and the logs. Call after ``stopAll()``;
    /// as it, returns at once when the loop has stopped already.
    public nonisolated func close() async {
        try? await loop.submit { self.assumeIsolated { engine in engine.closeHandles() } }
    }

    private func closeHandles() {
        guard !isClosed else { return }
        isClosed = true
        notifySocket?.close()
        notifySocket = nil
        livenessClient?.close()
        livenessClient = nil
        cgroupStorage?.removeAll()
        for unit in units.values {
            releaseSocket(unit)
            for timer in unit.timers { timer.close() }
            unit.output?.drain()
            unit.output?.close()
            closeReplica(unit)
            unit.log.close()
        }
        LogArchive.waitForPending()
    }

    // MARK: Internals

    func unit(_ name: String) throws(ServiceError) -> ServiceUnit {
        guard let unit = units[name] else {
            throw ServiceError(
                .notFound, "no service named \"\(name)\"; known: \(order.joined(separator: ", "))",
                details: [ErrorDetail("name", name)])
        }
        return unit
    }

    func makeUnit(_ spec: ServiceSpec) -> ServiceUnit {
        ServiceUnit(
            spec: spec,
            log: ServiceLog(
                path: configuration.runDirectory.log(for: spec.name), maxBytes: spec.logMaxBytes,
                rotation: spec.logRotation),
            loop: loop)
    }

    func bindSocket(_ unit: ServiceUnit) throws(SupervisorError) {
        guard unit.spec.socket, unit.listeningFD == nil else { return }
        if let endpoint = unit.spec.endpoint {
            unit.listeningFD = try ListeningSocket.bind(endpoint: endpoint)
            return
        }
        let path = configuration.runDirectory.socket(for: unit.spec.name)
        unit.listeningFD = try ListeningSocket.bind(path: path)
        // As root, each service runs as its own user: the operator group (each service's
        // supplementary group) may connect; which caller may call is the daemon's check.
        if let users = configuration.serviceUsers, let gid = AccountDatabase.groupID(named: users.operatorGroup) {
            chown(path, 0, gid)
        }
    }

    func releaseSocket(_ unit: ServiceUnit) {
        stopWatchingForDemand(unit)
        guard let fd = unit.listeningFD else { return }
        Glibc.close(fd)
        if unit.spec.endpoint == nil { unlink(configuration.runDirectory.socket(for: unit.spec.name)) }
        unit.listeningFD = nil
    }

    /// Kills whatever the pid records and the cgroups of an earlier supervisor still hold, and
    /// removes them.
    private func killLeftovers() {
        let folder = configuration.runDirectory.pidDirectory
        let names = FolderEntries.names(in: folder).filter { !$0.hasPrefix(".") }
        for name in names {
            let path = "\(folder)/\(name)"
            if let text = PidRecord.readSmallFile(path), let record = PidRecord(line: text),
                let done = record.killLeftovers()
            {
                logger.warning("\(name): \(done)")
            }
            unlink(path)
        }
        // What left its group but not its cgroup, where a service had one.
        if manifest.services.contains(where: { $0.limits.needsCgroup }) {
            for note in cgroups.sweepLeftovers(services: Set(manifest.services.map(\.name))) {
                logger.warning("\(note)")
            }
        }
    }

    func emit(_ unit: ServiceUnit) {
        let event = Event(service: unit.spec.name, state: unit.state, pid: unit.pid, at: .now)
        for observer in observers { observer(event) }
        if !stateFollowers.isEmpty {
            let status = unit.status(now: .now)
            for follower in stateFollowers.values { follower(status) }
        }
    }
}
