import ArgumentParser
import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsManifest
import VerticalsObservability
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSupervisorCommands

/// `svc-supervisor up [--manifest deploy/suite.toml] [--run-dir .run]`: the daemon, in the foreground.
///
/// Synchronous: ``SupervisorMain`` runs it before ArgumentParser's async main would start, so the
/// supervisor lives on its loop and no libdispatch worker pool wakes it while it idles.
struct UpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Start every service of the manifest and supervise them in the foreground.",
        discussion: """
            Ctrl-C or SIGTERM stops every service in reverse dependency order and exits 0.
            SIGHUP (or `svc-supervisor reload`) re-reads the manifest and applies only the difference.
            Each crash, restart and give-up is one line on standard error, besides the
            service's log file.

            Once every service is ready (or idle, on demand) it says so in one line, with the
            time since it started.

            While it runs, it leaves a pointer to its run directory in
            $XDG_RUNTIME_DIR/verticals (as root: /run/verticals; $VERTICALS_POINTER_DIR
            overrides, empty turns it off), so every other command finds this suite
            from any folder. When that pointer named another suite still running, it says
            so, naming that suite's run directory (--run-dir reaches it).

            As root, each service runs as its own user (`SUITE-NAME`, SUITE being the
            manifest's [suite] name, verticals when it gives none; or its manifest `user`),
            created when missing with the same sysusers.d lines the systemd export writes, and
            admits only root, the SUITE group (as a primary group) and the services that
            declare it in depends_on. `up` refuses to start, naming the path,
            when a service's user cannot reach its executable or the run folder.
            VERTICALS_SERVICE_USERS=off keeps every service as root (development only);
            VERTICALS_OPERATOR_GROUP names another operator group than SUITE.
            VERTICALS_SPAWN=shim starts every service through vt-exec, also those that
            need no user or limit (started in place otherwise).

            A service starts from its manifest's env and what the supervisor sets for it; of
            the supervisor's own environment it receives only PATH, LANG, LANGUAGE, LC_*, TZ
            and the variables VERTICALS_PASS_ENVIRONMENT names (NAME or PREFIX*; the TLS
            settings never). The control socket is the supervisor's user's alone (0600).

            Exit status: 0 after an orderly stop, 65 when the manifest is invalid (as
            `check` says), 1 when it cannot start.

            \(CLIExitStatus.daemonSentence)
            """)

    @Option(name: .long, help: "The suite manifest.") var manifest = "deploy/suite.toml"
    @Option(name: .long, help: "The run directory to create and use (default: $VERTICALS_RUN_DIR, else .run).")
    var runDir: String?

    func run() throws {
        let status = serve()
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the supervisor until it stops; its exit status (see the discussion above).
    func serve() -> Int32 {
        LoggingBootstrap.bootstrap(environment: ProcessEnvironment.current)
        let programs = ProgramPaths.ownDirectory()
        // `up` makes a suite: it follows no pointer (that would be another supervisor's folder).
        let run = runDir ?? SuiteLocation.environmentRunDirectory(ProcessEnvironment.current) ?? ".run"
        var configuration = EngineConfiguration(
            runDirectory: RunDirectory(run), execShim: "\(programs)/vt-exec", programDirectory: programs)
        // The suite's name, for its users and group, is read once at start (a reload keeps them).
        let suite = (try? ManifestLoading.load(path: manifest, programDirectory: programs))?.suiteName
        configuration.serviceUsers = Self.serviceUsers(ProcessEnvironment.current, suite: suite ?? SuiteName.default)
        configuration.storeReader = "\(programs)/svc-supervisor-engine"
        if let litestream = ProcessEnvironment.current[SupervisorSettings.litestream.name], !litestream.isEmpty {
            configuration.litestream = litestream
        }
        let path = manifest
        let pointer = SuitePointer.places(environment: ProcessEnvironment.current).first
        return SupervisorDaemon.run(
            configuration: configuration,
            loadManifest: { try ManifestLoading.load(path: path, programDirectory: programs) },
            pointer: pointer)
    }

    /// A user per service as root, unless `VERTICALS_SERVICE_USERS=off`; nil otherwise (every
    /// service runs as the supervisor's user, which is all an ordinary user can do). Named after
    /// `suite` (the manifest's `[suite] name`): users `<suite>-NAME`, operator group `<suite>`,
    /// as the systemd export names them.
    static func serviceUsers(
        _ environment: [String: String], euid: UInt32 = geteuid(), suite: String = SuiteName.default
    ) -> ServiceUsers? {
        guard euid == 0, environment[SupervisorSettings.serviceUsers.name] != "off" else { return nil }
        var users = ServiceUsers(prefix: "\(suite)-", operatorGroup: suite)
        if let group = environment[SupervisorSettings.operatorGroup.name], !group.isEmpty {
            users.operatorGroup = group
        }
        return users
    }
}
