import VerticalsClient
import VerticalsSupervisorCommands
import ArgumentParser
import Glibc
import VerticalsContract
import VerticalsManifest
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorClient

/// `svc-supervisor check [--manifest deploy/suite.toml]`: validates a manifest without
/// starting anything.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a manifest: print \"ok: N services\" or every problem with its service and key.",
        discussion: """
            Bare executable names are looked up beside svc-supervisor itself; relative paths from the
            manifest's folder. With --run-dir, each socket path is checked against the 107-byte limit too.
            Every declared setting is validated as well: each service's `environment` against the daemons'
            settings, and this process's environment against the supervisor's. Each operation depends_on
            names is looked up in the checkout's contract lock (--contracts; by default
            Tests/Contracts/contracts.lock.json beside the manifest's folder, when there is one): one its
            vertical does not declare, or one only the operator may call, is a problem. Verticals the lock
            does not hold are left to their daemons, which warn at start-up about what they do not serve.
            A replica's credential file (key_file, credentials_file) must exist and be readable by its owner
            alone; a folder replica must lie outside every store's folder (systemd's layout, and --run-dir's).
            A service whose limits.open_files cannot hold its connection limits (VERTICALS_MAX_CONNECTIONS,
            and VERTICALS_MAX_STARTUPS' full on TCP, with a reserve) is a problem.
            Exit status: 0 when valid, 65 (EX_DATAERR) when not.
            """)

    @Option(name: .long, help: "The manifest.")
    var manifest = "deploy/suite.toml"

    @Option(
        name: .long, help: "Also check socket path lengths for this run directory (sockets go in <run-dir>/sockets).")
    var runDir: String?

    @Option(name: .long, help: "Where bare executable names are found (default: svc-supervisor's own folder).")
    var binDir: String?

    @Option(
        name: .long,
        help:
            "The contract lock depends_on's operations are checked against (default: ../Tests/Contracts/contracts.lock.json from the manifest's folder, when it exists)."
    )
    var contracts: String?

    @Flag(
        name: .long,
        help: "Print every key a manifest takes, with its type, default and meaning (Markdown), and check nothing.")
    var listKeys = false

    /// The problem with `service`'s `limits.open_files` when its daemon's connection limits need
    /// more descriptors (``ConnectionLimits/descriptorsNeeded(tls:)``), counting the TLS peers it
    /// may hold in their handshake when it serves TCP. Unset, the daemon raises its soft limit to
    /// the hard one and checks it at start.
    static func descriptorProblem(_ service: ServiceSpec) -> ManifestError? {
        guard let openFiles = service.limits.openFiles else { return nil }
        let limits = ConnectionLimits.from(environment: service.environment)
        let tcp =
            service.endpoint?.transport == .tcp
            || service.environment[DaemonSettings.listen.name]?.hasPrefix("tcp:") == true
        let needed = limits.descriptorsNeeded(tls: tcp)
        guard needed > openFiles else { return nil }
        let startups = tcp ? " + VERTICALS_MAX_STARTUPS' full (\(limits.startups.full))" : ""
        return ManifestError(
            .conflict, service: service.name, key: "limits.open_files",
            "\(openFiles) descriptors do not hold its connection limits: VERTICALS_MAX_CONNECTIONS "
                + "(\(limits.maxConnections))\(startups) + \(ConnectionLimits.reservedDescriptors) of its own need "
                + "\(needed); raise open_files or lower those limits in env")
    }

    func run() throws {
        if listKeys {
            Terminal.print(
                lines: ManifestKeyReference.markdown().split(separator: "\n", omittingEmptySubsequences: false)
                    .dropLast().map { "\($0)" })
            return
        }
        let (parsed, parseProblems) = ManifestParser.load(
            path: manifest, binDirectory: binDir ?? ProgramPaths.ownDirectory())
        var problems = parseProblems
        if let runDir {
            let absolute = runDir.hasPrefix("/") ? runDir : "\(ProgramPaths.currentDirectory())/\(runDir)"
            problems += parsed.socketPathProblems(socketDirectory: "\(absolute)/sockets")
        }
        for service in parsed.services {
            problems += DaemonSettings.declaration.problems(in: service.environment).map {
                ManifestError(.invalidValue, service: service.name, key: "env", $0.description)
            }
        }
        problems += parsed.services.compactMap(Self.descriptorProblem)
        problems += ReplicaFiles.problems(
            in: parsed, runDirectory: runDir.map { $0.hasPrefix("/") ? $0 : "\(ProgramPaths.currentDirectory())/\($0)" }
        )
        let lockPath = contracts ?? DeclaredOperations.lockPath(beside: manifest)
        if contracts != nil || access(lockPath, F_OK) == 0 {
            switch DeclaredOperations.lock(at: lockPath) {
            case .success(let lock): problems += DeclaredOperations.problems(in: parsed, lock: lock, path: lockPath)
            case .failure(let problem): problems.append(problem)
            }
        }
        problems += SupervisorSettings.declaration.problems(in: ProcessEnvironment.current).map {
            ManifestError(.invalidValue, key: "svc-supervisor's environment", $0.description)
        }
        guard problems.isEmpty else {
            for problem in problems { Terminal.print("\(manifest): \(problem)") }
            Terminal.print("\(problems.count) problem\(problems.count == 1 ? "" : "s")")
            throw ExitCode(65)
        }
        Terminal.print("ok: \(parsed.services.count) service\(parsed.services.count == 1 ? "" : "s")")
    }
}
