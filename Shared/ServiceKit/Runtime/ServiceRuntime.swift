#if canImport(Glibc)
import Glibc
#endif
import Logging
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsObservability
import VerticalsSettings
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
    /// True under `--check` and `--place-replica-copy`: ``DaemonMain`` reports the checks passed
    /// instead of serving.
    public let checkOnly: Bool
    /// True under `--place-replica-copy`: building the World puts the copy restored from the
    /// replica in place, checked, and ends with what it did (VerticalsStorage's `WorldParts.live`),
    /// never opening the store.
    public let placesReplicaCopy: Bool

    /// Creates the runtime of vertical `name` from `environment`. With `calls` (the World's
    /// `calls`), the client asks each callee on each new connection whether it serves what this
    /// build was compiled against (`CalleeContracts`).
    public convenience init(
        name: String, environment: [String: String] = ProcessEnvironment.current, checkOnly: Bool = false,
        calls: Callees? = nil
    ) throws {
        try self.init(
            name: name, environment: environment, checkOnly: checkOnly, placesReplicaCopy: false, calls: calls)
    }

    /// The runtime of ``init(name:environment:checkOnly:calls:)``; with `placesReplicaCopy`, that
    /// of `--place-replica-copy` (``placesReplicaCopy``).
    init(
        name: String, environment: [String: String], checkOnly: Bool, placesReplicaCopy: Bool, calls: Callees?
    ) throws {
        self.name = name
        self.checkOnly = checkOnly || placesReplicaCopy
        self.placesReplicaCopy = placesReplicaCopy
        self.environment = environment
        LoggingBootstrap.bootstrap(environment: environment)
        logger = Logger(label: name)
        loop = try EventLoop(name: name)
        var configuration = HostConfiguration.from(environment: environment, name: name, pid: getpid())
        if configuration.tracing.enabled {
            let recorder = TraceRecorder(service: name, sampling: configuration.tracing, lanes: configuration.loops)
            configuration.traceRecorder = recorder
            try recorder.addExporter(environment: environment)
            TracingBootstrap.bootstrap(recorder: recorder)
        }
        let notifier = Notifier(environment: environment)
        // What grows with what a callee sends (a description that differs, an answer over
        // `ServiceClient.offLoopAnswerBytes`) is worked off the loop, on the blocking-work threads:
        // bounded work that the calls queued behind it wait for, so not behind password hashes at
        // the compute threads' low priority.
        let offLoop = OffLoop { BlockingThreads.shared.run($0) }
        let contracts = calls.flatMap { calls in
            calls.linked.isEmpty
                ? nil
                : CalleeContracts(
                    caller: name, callees: calls, offLoop: offLoop
                ) { line in _ = notifier.notify("STATUS=\(line)") }
        }
        configuration.calleeContracts = contracts
        self.configuration = configuration
        Offload.configure(configuration.blockingWork)
        client = ServiceClient(
            loop: loop, sockets: configuration.socketDirectory, logger: Logger(label: "\(name).client"),
            contracts: contracts, tracing: configuration.tracing.enabled ? VerticalsCallTracing() : nil,
            offLoop: offLoop)
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
    static func boot(
        name: String, summary: String, settings: SettingsDeclaration? = nil, arguments: [String],
        describe: (() -> BuildDescription)? = nil, calls: Callees? = nil
    ) throws(DaemonExit) -> ServiceRuntime {
        let mode: DaemonArguments
        switch DaemonArguments.parse(arguments) {
        case .success(let parsed): mode = parsed
        case .failure(let usage):
            throw .usage(
                "svc-\(name): \(usage)\n\n"
                    + DaemonArguments.usage(name: name, summary: summary))
        }
        switch mode {
        case .help:
            throw .answered(
                DaemonArguments.usage(name: name, summary: summary)
                    + DaemonPaths(name: name, environment: ProcessEnvironment.current).helpText(name: name))
        case .version:
            throw .answered("svc-\(name) \(DaemonArguments.suiteVersion)\n")
        case .printSettings:
            throw .answered(settings?.markdown ?? "")
        case .describe:
            guard let describe else {
                throw .usage(
                    "svc-\(name) --describe: this daemon's main names no contract (DaemonMain.run(name:)), so its build "
                        + "cannot describe itself; start it with DaemonMain.run(Contract.self, calls:)\n")
            }
            let text: String
            do {
                text = try describe().printed()
            } catch {
                throw .cannotStart("svc-\(name) --describe: the description does not print as JSON: \(error)\n")
            }
            throw .answered(text)
        case .probe:
            throw probe(name: name)
        case .serve, .check, .placeReplicaCopy: break
        }
        let runtime: ServiceRuntime
        do {
            runtime = try ServiceRuntime(
                name: name, environment: ProcessEnvironment.current, checkOnly: mode == .check,
                placesReplicaCopy: mode == .placeReplicaCopy, calls: calls)
        } catch {
            throw .cannotStart("\(name): cannot start: \(error)\n")
        }
        if mode == .check {
            let problems = DaemonArguments.problems(
                in: runtime.configuration, environment: runtime.environment, settings: settings)
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

    /// The vertical's state directory, by `DaemonPaths`' rule: `$STATE_DIRECTORY` (systemd,
    /// svc-supervisor), else `$VERTICALS_RUN_DIR/state/<name>`, else `/var/lib/verticals/<name>`
    /// as root, else `.run/state/<name>`.
    public var stateDirectory: String {
        DaemonPaths(name: name, environment: environment).stateDirectory
    }

    /// What `--check` says once the World was built: the store is this vertical's, opened and
    /// migrated. Under `--place-replica-copy` a World built means its store was opened some other
    /// way than VerticalsStorage's `WorldParts.live`, so no copy was checked: a failure.
    func checkPassed() -> DaemonExit {
        if placesReplicaCopy {
            return .cannotStart(
                "svc-\(name) --place-replica-copy: this daemon builds its World without VerticalsStorage's "
                    + "WorldParts.live, so no copy restored from its replica was checked or placed\n",
                restartCannotHelp: true)
        }
        return .answered(
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
        let lifecycle = DaemonLifecycle(
            parts: [
                AtShutdown { client.close() }, AtShutdown { await background.stop() },
                HostPart(host),
            ],
            loop: loop, signals: signals, logger: logger)
        return DaemonMain.runOnLoop(loop) {
            do {
                try await run(lifecycle)
                return .stopped
            } catch {
                return DaemonExit(error)
            }
        }
    }
}
