#if canImport(Glibc)
import Glibc
#endif
import Logging
import VerticalsContract
import VerticalsEventLoop
import VerticalsSettings
import VerticalsWire

/// What a daemon's command line asks for: serve (no arguments), `--check`, `--place-replica-copy`,
/// `--probe`, `--help`, `--version`, `--print-settings` or `--describe`. Every vertical gets these from `ServiceRuntime/boot(_:)`, before anything
/// touches a socket.
public enum DaemonArguments: Equatable, Sendable {
    /// Serve the vertical (the normal case).
    case serve
    /// Validate the environment and open (migrating) the store, then exit without serving; a
    /// store another process holds is left to it (see `ServiceRuntime/makeWorld(_:)`).
    case check
    /// Put the copy of the store that `litestream restore` wrote beside it
    /// (`<name>.from-replica.sqlite`) in place as the store, through every check of a backup's
    /// restore, then exit without serving or migrating: what a deployment's restore from the
    /// replica runs before the vertical's first start (VerticalsStorage's
    /// `SQLiteStore.placeReplicaCopy`). A copy that fails is kept aside and no store is made.
    case placeReplicaCopy
    /// Ask the running daemon, at its own endpoint, `daemon.health` within
    /// ``probeTimeout(environment:)``; exit 0 when it answers, 1 otherwise (an exec probe's contract).
    case probe
    /// Print usage and exit 0.
    case help
    /// Print the version and exit 0.
    case version
    /// Print the vertical's own settings (its `SettingsDeclaration`) as Markdown and exit 0: what
    /// the ENVIRONMENT reference is generated from.
    case printSettings
    /// Print the build's contract and what it was compiled against for the operations it calls
    /// (`BuildDescription`, as JSON) and exit 0: what `svc-supervisor can-i-deploy` reads.
    case describe

    /// The suite's version, printed by `--version`: `VerticalsVersion/current`.
    public static let suiteVersion = VerticalsVersion.current

    /// Reads `arguments` (without the program name); an unknown one is a usage error naming it.
    public static func parse(_ arguments: [String]) -> Result<DaemonArguments, UsageError> {
        guard let first = arguments.first else { return .success(.serve) }
        guard arguments.count == 1 else { return .failure(UsageError(argument: arguments[1])) }
        switch first {
        case "--check": return .success(.check)
        case "--place-replica-copy": return .success(.placeReplicaCopy)
        case "--probe": return .success(.probe)
        case "--help", "-h": return .success(.help)
        case "--version": return .success(.version)
        case "--print-settings": return .success(.printSettings)
        case "--describe": return .success(.describe)
        default: return .failure(UsageError(argument: first))
        }
    }

    /// An argument a daemon does not take.
    ///
    /// Its ``code`` is `unknownArgument`; the argument is also the detail `argument`.
    public struct UsageError: CodedError {
        /// What kind of problem it is.
        public typealias Code = ErrorKind<UsageError>

        /// The argument.
        public var argument: String

        /// What kind of problem it is: always `unknownArgument`.
        public var code: Code { .unknownArgument }
        /// `unknown argument <argument>`.
        public var message: String { "unknown argument \(argument)" }
        /// The argument, as the detail `argument`.
        public var details: [ErrorDetail] { [ErrorDetail("argument", argument)] }
    }

    /// The `--help` text of daemon `svc-<name>`.
    public static func usage(name: String, summary: String) -> String {
        """
        svc-\(name): the \(name) vertical\(summary.isEmpty ? "" : " — \(summary)")

        Usage: svc-\(name) [--check | --place-replica-copy | --probe | --help | --version | --print-settings | --describe]
          (no argument)  serve on the socket under Paths, or on the one handed over in LISTEN_FDS
          --check        validate the environment and check the store (this vertical's, not a newer build's; then
                         migrated), then exit: 0 when all is well; 78 when a restart could not help. Never creates
                         a store; one a running svc-\(name) holds is not opened: that one migrated it
          --place-replica-copy
                         put \(name).from-replica.sqlite, the copy `litestream restore` wrote beside the store, in
                         place as the store once it passed every check of a restore (a plain file; a whole SQLite
                         store of this vertical; no newer build's schema), then exit without serving: 0 when it was
                         placed, or when there was no copy or a store already; else 78 (or 70), the copy kept aside
                         as \(name).from-replica.refused.sqlite and no store made
          --probe        call daemon.health on the running svc-\(name), where a caller would find it, within
                         VERTICALS_PROBE_TIMEOUT_SECONDS (default 2): exit 0 when it answers, 1 otherwise
          --help         print this and exit
          --version      print the version and exit
          --print-settings  print the settings svc-\(name) reads beside every daemon's, as Markdown, and exit
          --describe     print this build's contract and the schemas it was built against for the operations it
                         calls (JSON, what svc-supervisor can-i-deploy reads), and exit; opens nothing

        Environment: systemd's STATE_DIRECTORY, NOTIFY_SOCKET, LISTEN_FDS/LISTEN_PID and WATCHDOG_USEC, and the
        settings of every daemon (VERTICALS_*, OTEL_*: docs/reference/environment.md), which --check validates.
        Usually started by svc-supervisor or systemd (README.md).

        """
    }

    /// How long `--probe` waits for `daemon.health` when `VERTICALS_PROBE_TIMEOUT_SECONDS` is not set.
    public static let defaultProbeTimeout: Duration = DaemonEnvironment.defaultProbeTimeout

    /// `--probe`'s deadline: `VERTICALS_PROBE_TIMEOUT_SECONDS` (a number > 0), else
    /// ``defaultProbeTimeout``; what is wrong with the variable otherwise.
    public static func probeTimeout(environment: [String: String]) -> Result<Duration, ProbeTimeoutError> {
        guard let text = environment[DaemonSettings.probeTimeoutSeconds.name], !text.isEmpty else {
            return .success(defaultProbeTimeout)
        }
        guard let seconds = DaemonSettings.probeTimeoutSeconds.validValue(in: environment) else {
            return .failure(ProbeTimeoutError(text: text))
        }
        return .success(.milliseconds(Int64((seconds * 1000).rounded(.up))))
    }

    /// `VERTICALS_PROBE_TIMEOUT_SECONDS` is not a number of seconds in (0, 3600].
    ///
    /// Its ``code`` is `notATimeout`; the value is also the detail `value`.
    public struct ProbeTimeoutError: CodedError {
        /// What kind of problem it is.
        public typealias Code = ErrorKind<ProbeTimeoutError>

        /// The variable's value.
        public var text: String

        /// What kind of problem it is: always `notATimeout`.
        public var code: Code { .notATimeout }
        /// What is wrong and what is allowed.
        public var message: String {
            "VERTICALS_PROBE_TIMEOUT_SECONDS=\(text) is not a number of seconds > 0 (at most 3600)"
        }
        /// The variable's value, as the detail `value`.
        public var details: [ErrorDetail] { [ErrorDetail("value", text)] }
    }

    /// Problems `--check` finds in `configuration` before the vertical opens its store.
    /// Every declared setting is validated: the framework's (``DaemonSettings``) and the vertical's
    /// own `settings`.
    static func problems(
        in configuration: HostConfiguration, environment: [String: String], settings: SettingsDeclaration? = nil
    ) -> [String] {
        var problems: [String] = []
        if configuration.activation == nil, configuration.socketPath.utf8.count > EventLoopError.maxSocketPathLength {
            problems.append(
                "the socket path \(configuration.socketPath) is longer than \(EventLoopError.maxSocketPathLength) bytes: "
                    + "set VERTICALS_SOCKET_DIR to a shorter folder")
        }
        problems += DaemonSettings.declaration.problems(in: environment).map(\.description)
        problems += (settings?.problems(in: environment) ?? []).map(\.description)
        if let problem = configuration.listenProblem { problems.append("VERTICALS_LISTEN: \(problem)") }
        if configuration.activation == nil, let listen = configuration.listen,
            let refusal = configuration.security.refusal(of: listen, to: "serve \(configuration.name)")
        {
            problems.append(refusal)
        }
        problems += configuration.socketDirectory.endpointProblems.values.sorted()
        if let files = configuration.security.files, configuration.security.usesTLS {
            do {
                _ = try TLSContext(files: files, role: .server)
            } catch {
                problems.append("VERTICALS_TLS_CERT/_KEY/_CA: \(error)")
            }
        }
        return problems
    }
}

extension ErrorKind where Domain == DaemonArguments.UsageError {
    /// The command line holds an argument a daemon does not take, or more than one.
    public static var unknownArgument: Self { Self("unknownArgument") }
}

extension ErrorKind where Domain == DaemonArguments.ProbeTimeoutError {
    /// `VERTICALS_PROBE_TIMEOUT_SECONDS` is not a number of seconds in (0, 3600].
    public static var notATimeout: Self { Self("notATimeout") }
}
