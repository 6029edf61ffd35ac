#if canImport(Glibc)
import Glibc
#endif
import Logging
import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// Everything a vertical's daemon shares: its environment, logger, the one event loop
/// it runs on, and the client it calls other verticals with. ``DaemonMain`` builds it and hands
/// it to `main.swift`, which builds the `World` from it:
///
/// ```swift
/// let status = DaemonMain.run(Appointments.self) { runtime in
///     let world = try World.live(runtime: runtime)
///     return ServedVertical(Endpoint.routes(world: world), store: world.store.database)
/// }
/// exit(status)
/// ```
public final class ServiceRuntime: Sendable {
    /// The vertical's name.
    public let name: String
    /// The environment the daemon started with.
    public let environment: [String: String]
    /// The daemon's logger.
    public let logger: Logger
    /// The daemon's event loop (one per daemon, on its own thread).
    public let loop: EventLoop
    /// The client for calling other verticals, on the same loop.
    public let client: ServiceClient
    /// The daemon's background work, on the loop; cancelled and awaited once requests drain.
    public let background: BackgroundWork
    /// How the host will serve.
    public let configuration: HostConfiguration
    /// True under `--check`: ``DaemonMain`` reports the checks passed instead of serving.
    public let checkOnly: Bool

    /// Creates the runtime of vertical `name` from `environment`.
    public init(name: String, environment: [String: String] = ProcessEnvironment.current, checkOnly: Bool = false) throws {
        self.name = name
        self.checkOnly = checkOnly
        self.environment = environment
        LoggingBootstrap.bootstrap(environment: environment)
        logger = Logger(label: name)
        loop = try EventLoop(name: name)
        var configuration = HostConfiguration.from(environment: environment, name: name, pid: getpid())
        if configuration.tracing.enabled {
            let recorder = TraceRecorder(service: name, sampling: configuration.tracing)
            configuration.traceRecorder = recorder
            if let exporter = try OTLPExporter.from(environment: environment, service: name) {
                recorder.add(exporter: exporter)
            }
            TracingBootstrap.bootstrap(recorder: recorder)
        }
        self.configuration = configuration
        Offload.configure(configuration.blockingWork)
        client = ServiceClient(
            loop: loop, sockets: configuration.socketDirectory, logger: Logger(label: "\(name).client"))
        background = BackgroundWork(loop: loop)
    }

    /// Creates the runtime of vertical `name` from its command line, or says why not.
    ///
    /// The command line decides first: `--help` and `--version` are answered (status 0) without
    /// touching a socket or the store; `--check` validates the environment here (status 78 naming
    /// every problem) and makes ``DaemonMain`` answer instead of serving, once `main.swift` has
    /// opened and migrated the store (see ``makeWorld(_:)``).
    /// `arguments` are the ones the daemon did not take itself.
    ///
    /// - Throws: the ``DaemonExit`` that ends the process instead: answered, usage (64),
    ///   configuration invalid (78) or cannot start (70).
    static func boot(name: String, summary: String, arguments: [String]) throws(DaemonExit) -> ServiceRuntime {
        let mode: DaemonArguments
        switch DaemonArguments.parse(arguments) {
        case .success(let parsed): mode = parsed
        case .failure(let usage):
            throw .usage(
                "svc-\(name): unknown argument \(usage.argument)\n\n" + DaemonArguments.usage(name: name, summary: summary))
        }
        switch mode {
        case .help:
            throw .answered(
                DaemonArguments.usage(name: name, summary: summary)
                    + DaemonPaths(name: name, environment: ProcessEnvironment.current).helpText(name: name))
        case .version:
            throw .answered("svc-\(name) \(DaemonArguments.suiteVersion)\n")
        case .probe:
            throw probe(name: name)
        case .serve, .check: break
        }
        let runtime: ServiceRuntime
        do {
            runtime = try ServiceRuntime(name: name, checkOnly: mode == .check)
        } catch {
            throw .cannotStart("\(name): cannot start: \(error)\n")
        }
        if runtime.checkOnly {
            let problems = DaemonArguments.problems(in: runtime.configuration, environment: runtime.environment)
            guard problems.isEmpty else {
                runtime.loop.shutdown()
                throw .configurationInvalid("svc-\(name) --check failed:\n" + problems.map { "  - \($0)\n" }.joined())
            }
        }
        return runtime
    }

    /// `--probe`: `daemon.health` on the running daemon, found where any caller of vertical `name`
    /// would find it (its socket under the socket folder; with TCP endpoints, its
    /// `VERTICALS_ENDPOINT_<NAME>`), within ``DaemonArguments/probeTimeout(environment:)``.
    /// Opens no store and binds nothing.
    static func probe(name: String) -> DaemonExit {
        let environment = ProcessEnvironment.current
        let timeout: Duration
        switch DaemonArguments.probeTimeout(environment: environment) {
        case .success(let value): timeout = value
        case .failure(let error): return .usage("svc-\(name) --probe: \(error)\n")
        }
        let runtime: ServiceRuntime
        do {
            runtime = try ServiceRuntime(name: name, environment: environment)
        } catch {
            return .unhealthy("svc-\(name) --probe: cannot start: \(error)\n")
        }
        let client = runtime.client
        let failure: String? = DaemonMain.runOnLoop(runtime.loop) {
            defer { client.close() }
            do {
                let body = try await client.callRaw(
                    service: name, operation: Daemon.health.fullName, body: Empty().encodedBody(), timeout: timeout)
                _ = try Daemon.Health(decoding: body)
                return nil
            } catch let error as ServiceError {
                return "\(Daemon.health.fullName): \(error.code): \(error.message)"
            } catch {
                return "\(Daemon.health.fullName) answered with a body that is not daemon.Health: \(error)"
            }
        }
        runtime.loop.shutdown()
        guard let failure else { return .answered("svc-\(name) --probe: healthy\n") }
        return .unhealthy("svc-\(name) --probe: unhealthy: \(failure)\n")
    }

    /// The vertical's state directory, by ``DaemonPaths``' rule: `$STATE_DIRECTORY` (systemd,
    /// svc-supervisor), else `$VERTICALS_RUN_DIR/state/<name>`, else `/var/lib/verticals/<name>`
    /// as root, else `.run/state/<name>`.
    public var stateDirectory: String {
        DaemonPaths(name: name, environment: environment).stateDirectory
    }

    /// What `--check` says once the World was built: the store is this vertical's, opened and migrated.
    func checkPassed() -> DaemonExit {
        .answered(
            "svc-\(name) --check: environment valid, the store in \(stateDirectory) is this vertical's, "
                + "opened and migrated\n")
    }

    /// Serves `served` until SIGTERM or SIGINT, then drains in order (see ``DaemonMain``) and
    /// returns how the daemon ends. Blocks the calling thread (`main`'s) while the parts run
    /// on the loop.
    func serve(_ served: ServedVertical) -> DaemonExit {
        serve(served, signals: [SIGTERM, SIGINT]) { lifecycle in try await lifecycle.run() }
    }

    /// Serves `served` with the daemon's parts in one ``DaemonLifecycle`` watching `signals`,
    /// which `run` runs on the loop (alone, or as one service of a larger group), and returns
    /// how the daemon ends. Blocks the calling thread (`main`'s) meanwhile.
    package func serve(
        _ served: ServedVertical, signals: [Int32], _ run: @escaping @Sendable (DaemonLifecycle) async throws -> Void
    ) -> DaemonExit {
        var configuration = self.configuration
        configuration.store = served.store
        configuration.stateDirectory = stateDirectory
        let host = ServiceHost(configuration: configuration, router: served.router, loop: loop, logger: logger)
        let (client, background, logger, loop) = (self.client, self.background, self.logger, self.loop)
        // The main thread waits here for the daemon's end; once the host has served for a
        // moment, it first gives back the pages only start-up needed (`releaseStartUpPages`).
        let end = BlockingResult<DaemonExit>()
        let releases = environment[Self.startUpPagesVariable] != "keep"
        if let problem = Self.startUpPagesProblem(in: environment) {
            logger.warning("\(problem): start-up's pages are released")
        }
        let serving: @Sendable () -> Void = {
            guard releases else { return }
            _ = loop.execute {
                let settle = LoopTimer(loop: loop)
                settle.start(after: Self.startUpSettle) {
                    settle.close()
                    end.runWhileWaiting { Self.releaseStartUpPages(logger) }
                }
            }
        }
        let lifecycle = DaemonLifecycle(
            parts: [
                AtShutdown { client.close() }, AtShutdown { await background.stop() },
                HostPart(host, onServing: serving),
            ],
            loop: loop, signals: signals, logger: logger)
        return DaemonMain.runOnLoop(loop, into: end) {
            do {
                try await run(lifecycle)
                return .stopped
            } catch {
                return DaemonExit(error)
            }
        }
    }

    /// `keep` leaves a daemon's start-up pages mapped (``releaseStartUpPages(_:)`` never runs):
    /// for a profile that counts instructions by wall-clock lives (the release would land in one
    /// life and not the other), or memory figures read the old way; `release` (the default) is the
    /// same as unset.
    public static let startUpPagesVariable = "VERTICALS_STARTUP_PAGES"

    /// What is wrong with ``startUpPagesVariable`` in `environment`, if anything.
    static func startUpPagesProblem(in environment: [String: String]) -> String? {
        guard let value = environment[startUpPagesVariable], !["keep", "release"].contains(value) else { return nil }
        return "\(startUpPagesVariable)=\(value) is neither release nor keep"
    }

    /// How long after `READY=1` a daemon gives back its start-up pages: past the first requests
    /// (an on-demand start's first caller waits in the backlog and is answered at once), which
    /// the release would slow down, since it costs about 1.5 ms of CPU and the pages it drops
    /// that a request needs fault back in. One timer, which fires once.
    static let startUpSettle = Duration.seconds(1)

    /// Gives back the start-up pages of a daemon that serves: its mappings of the program's and
    /// the libraries' clean read-only pages (``MappedPages/dropReadOnlyFilePages()``). Most of a
    /// ready daemon's resident memory is code and constants start-up ran once; what requests use
    /// faults back in from the page cache, which keeps them all. Measured with clinics (release
    /// build): 24 MiB resident when ready, 6-9 MiB after; and the kernel reaps a kill -9 of it in
    /// 0.74 ms instead of 1.36 (it unmaps fewer pages), which is on every restart's path. On
    /// the main thread, which has nothing else to do: the loops serve meanwhile.
    static func releaseStartUpPages(_ logger: Logger) {
        guard logger.logLevel <= .debug else {
            MappedPages.dropReadOnlyFilePages()
            return
        }
        let before = MappedPages.residentBytes()
        let started = MonotonicInstant.now
        let dropped = MappedPages.dropReadOnlyFilePages()
        let micros = (MonotonicInstant.now.nanoseconds - started.nanoseconds) / 1000
        logger.debug(
            "serving: start-up's pages given back in \(micros) µs (\(dropped >> 10) KiB of read-only file pages; resident \(before.map { "\($0 >> 10)" } ?? "?") KiB before, \(MappedPages.residentBytes().map { "\($0 >> 10)" } ?? "?") KiB after)")
    }
}
