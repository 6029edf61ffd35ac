#if canImport(Glibc)
import Glibc
#endif
import EventLoop
import GRDB
import IOInterface
import Logging
import Storage

/// Everything a vertical's daemon shares: its environment, logger, the one event loop
/// it runs on, and the client it calls other verticals with. Built first in `main.swift`,
/// handed to the `World`, then asked to ``serve(_:)`` the vertical's router:
///
/// ```swift
/// let runtime = ServiceRuntime.boot(Appointments.self)
/// let world = runtime.makeWorld { try World.live(runtime: runtime) }
/// await runtime.serve(Endpoint.routes(world: world))
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
    /// True under `--check`: ``serve(_:)`` reports the checks passed and exits instead of serving.
    public let checkOnly: Bool

    /// Creates the runtime of vertical `name` from `environment`.
    public init(name: String, environment: [String: String] = ProcessEnvironment.current, checkOnly: Bool = false) throws {
        self.name = name
        self.checkOnly = checkOnly
        self.environment = environment
        LoggingBootstrap.bootstrap(environment: environment)
        logger = Logger(label: name)
        loop = try EventLoop(name: name)
        configuration = HostConfiguration.from(environment: environment, name: name, pid: getpid())
        client = ServiceClient(
            loop: loop, sockets: configuration.socketDirectory, logger: Logger(label: "\(name).client"))
        background = BackgroundWork(loop: loop)
    }

    /// Creates the runtime of `contract`'s vertical, or exits with a message on standard error.
    /// Answers `--help` and `--version` first (exit 0, nothing opened); see ``DaemonArguments``.
    public static func boot(_ contract: any ServiceContract.Type) -> ServiceRuntime {
        boot(name: contract.name, summary: contract.summary)
    }

    /// Creates the runtime of vertical `name`, or exits with a message on standard error.
    ///
    /// The command line decides first: `--help` and `--version` print and exit 0 without touching
    /// a socket or the store; `--check` validates the environment here (exit 78 naming every
    /// problem) and makes ``serve(_:)`` exit 0 instead of serving, once `main.swift` has opened
    /// and migrated the store (a store that fails exits there, non-zero, with its message; one a
    /// running daemon holds is left alone, exit 0: see ``makeWorld(_:)``).
    /// `arguments` are the ones the daemon did not take itself (default: all after the program name).
    public static func boot(
        name: String, summary: String = "", arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> ServiceRuntime {
        let mode: DaemonArguments
        switch DaemonArguments.parse(arguments) {
        case .success(let parsed): mode = parsed
        case .failure(let usage):
            StandardError.write("svc-\(name): unknown argument \(usage.argument)\n\n")
            StandardError.write(DaemonArguments.usage(name: name, summary: summary))
            exit(64)
        }
        switch mode {
        case .help:
            print(DaemonArguments.usage(name: name, summary: summary), terminator: "")
            print(DaemonPaths(name: name, environment: ProcessEnvironment.current).helpText(name: name), terminator: "")
            exit(0)
        case .version:
            print("svc-\(name) \(DaemonArguments.suiteVersion)")
            exit(0)
        case .serve, .check: break
        }
        do {
            let runtime = try ServiceRuntime(name: name, checkOnly: mode == .check)
            if runtime.checkOnly {
                let problems = DaemonArguments.problems(in: runtime.configuration, environment: runtime.environment)
                guard problems.isEmpty else {
                    StandardError.write("svc-\(name) --check failed:\n" + problems.map { "  - \($0)\n" }.joined())
                    exit(78)
                }
            }
            return runtime
        } catch {
            StandardError.write("\(name): cannot start: \(error)\n")
            exit(70)
        }
    }

    /// The vertical's state directory, by ``DaemonPaths``' rule: `$STATE_DIRECTORY` (systemd,
    /// svc-supervisor), else `$VERTICALS_RUN_DIR/state/<name>`, else `/var/lib/verticals/<name>`
    /// as root, else `.run/state/<name>`.
    public var stateDirectory: String {
        DaemonPaths(name: name, environment: environment).stateDirectory
    }

    /// Serves `router` until SIGTERM or SIGINT, then drains in-flight requests, ends the
    /// ``background`` work (cancelled, then awaited) and returns.
    /// `store`, the vertical's own database, is what `daemon.backup` copies.
    ///
    /// A socket that cannot be had (path too long, address in use) is reported on standard
    /// error and the process exits with status 69, so the supervisor records why.
    public func serve(_ router: Router, store: (any DatabaseReader)? = nil) async {
        if checkOnly {
            print(
                "svc-\(name) --check: environment valid, the store in \(stateDirectory) is this vertical's, "
                    + "opened and migrated")
            exit(0)
        }
        var configuration = self.configuration
        configuration.store = store
        configuration.stateDirectory = stateDirectory
        let host = ServiceHost(configuration: configuration, router: router, loop: loop, logger: logger)
        let logger = self.logger
        let name = self.name
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            host.stopOnSignals { stopped.resume() }
            Task {
                do {
                    try await host.start()
                } catch {
                    logger.critical("cannot serve \(name): \(error)")
                    exit(69)
                }
            }
        }
        await background.stop()
        client.close()
        loop.shutdown()
    }
}
