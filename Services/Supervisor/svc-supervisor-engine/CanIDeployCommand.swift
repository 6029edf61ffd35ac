import ArgumentParser
import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsManifest
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSupervisorCommands
import VerticalsWire

/// `svc-supervisor can-i-deploy NAME --executable PATH [--json]`: whether a new build of one
/// vertical can join the builds that run (Pact's can-i-deploy, answered by the running suite).
struct CanIDeployCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-i-deploy",
        abstract: "Say whether a new build of a vertical is compatible with the builds that run beside it.",
        discussion: """
            The new build is asked what it serves and what it was built against (PATH --describe), run as \
            untrusted code: as root, as the vertical's own user from the manifest, never as root; otherwise as \
            you; with an empty environment, in /, with nothing inherited, a time limit and an output cap.

            Each running caller of NAME (a service whose depends_on names it) is asked the same of its running \
            executable (/proc/PID/exe: the build that runs, even when its file was replaced; a caller that is \
            not running, of its program on disk; where no supervisor answers, the main process of its systemd unit, \
            else its program on disk). Each vertical the new build calls is asked daemon.describe. \
            One table judges every edge: what the caller was built against for the operations it declares, \
            against what the callee's build serves, the caller writing each Input and reading each Output; each \
            difference is a refusal, a warning or nothing (docs/PROTOCOL.md section 8, docs/CONTRACTS.md).

            Exit status: 0 yes, each warning named; 2 no, each refused difference named (caller, operation, \
            field, both sides); 4 no answer, \
            as an edge could not be compared (a vertical not reachable or not describing itself) and none \
            breaks; 1 the new build cannot describe itself; 64 no such service; 65 an invalid manifest; 69 no \
            supervisor answers.
            """)

    /// The exit status when the new build breaks a running peer.
    static let breaksStatus: Int32 = 2
    /// The exit status when an edge could not be compared and none breaks.
    static let unknownStatus: Int32 = 4

    @Argument(help: "The vertical, as the manifest names it.")
    var name: String

    @Option(name: .long, help: "The new build's program.")
    var executable: String

    @Option(name: .long, help: "The manifest the suite runs (its users and depends_on).")
    var manifest = "deploy/suite.toml"

    @Option(name: .long, help: "Where bare executable names are found (default: svc-supervisor's own folder).")
    var binDir: String?

    @Option(name: .long, help: "Seconds a build may take to describe itself.")
    var describeTimeout: Double = 10

    @Flag(
        help: """
            Print the answer as JSON: {vertical, answer, edges: [{caller, callee, outcome, reason?, findings: \
            [{kind, verdict, breaking, direction, operation, place, detail}]}]}.
            """)
    var json = false

    @OptionGroup var connection: VerticalConnectionOptions

    func validate() throws {
        guard describeTimeout > 0, describeTimeout <= 600 else {
            throw ValidationError("--describe-timeout must be in (0, 600] seconds")
        }
    }

    func run() async throws {
        var answer = DeployAnswer.yes
        try await ControlClient.reporting {
            let programs = binDir ?? ProgramPaths.ownDirectory()
            let suite: Manifest
            do {
                suite = try ManifestLoading.load(path: manifest, programDirectory: programs)
            } catch {
                throw CLIError(.invalidManifest, status: 65, "\(error)", cause: error)
            }
            guard let spec = suite.services.first(where: { $0.name == name }) else {
                throw CLIError(
                    .notFound, status: 64,
                    "no service named \"\(name)\" in \(manifest); known: "
                        + suite.services.map(\.name).joined(separator: ", "))
            }
            let describer = BuildDescriber(
                execShim: "\(programs)/vt-exec", timeout: .milliseconds(Int64(describeTimeout * 1000)))
            let program = executable.hasPrefix("/") ? executable : "\(ProgramPaths.currentDirectory())/\(executable)"
            let newBuild: BuildDescription
            do {
                newBuild = try describer.describe(program, as: try BuildDescriber.account(for: spec))
            } catch {
                throw CLIError(
                    .failed, status: 1, "the new build of \(name) cannot describe itself: \(error)", cause: error)
            }
            let running = try await runningCallers(of: suite)
            var edges = callerEdges(newBuild, suite: suite, running: running, describer: describer)
            edges += try await calleeEdges(newBuild)
            answer = DeployAnswer(edges)
            print(answer: answer, edges: edges)
        }
        switch answer {
        case .yes: return
        case .no: throw ExitCode(Self.breaksStatus)
        case .unknown: throw ExitCode(Self.unknownStatus)
        }
    }

    /// The running process of each caller of NAME, by name: from the supervisor; where none
    /// answers, from systemd's units on this host (their `MainPID`); else none, and each caller
    /// is judged by its program on disk (said on standard error).
    func runningCallers(of suite: Manifest) async throws -> [String: Int32] {
        do {
            let services = try await ControlClient.call(Supervisor.status, Empty(), location: connection.suite.location)
                .services
            return Dictionary(services.compactMap { service in service.pid.map { (service.name, Int32($0)) } }) {
                first, _ in first
            }
        } catch let error as CLIError where error.code == .unreachable {
            let callers = ServiceAccounts.callers(of: name, in: suite).map(\.name)
            guard SystemdSuite.isRunning else {
                Terminal.error("no supervisor answers: each caller is judged by its program on disk")
                return [:]
            }
            Terminal.error("no supervisor answers: the callers' running builds are those of systemd's units")
            let systemd = SystemdSuite(HostSuite(name: suite.suiteName, chosenBy: "the manifest"))
            return Dictionary(callers.compactMap { caller in systemd.mainPID(of: caller).map { (caller, $0) } }) {
                first, _ in first
            }
        }
    }

    /// Each caller of NAME in the manifest, judged from what its build was compiled against.
    func callerEdges(
        _ newBuild: BuildDescription, suite: Manifest, running: [String: Int32], describer: BuildDescriber
    ) -> [DeployEdge] {
        ServiceAccounts.callers(of: name, in: suite).compactMap { caller in
            let account = Result { () throws(BuildDescribeError) in try BuildDescriber.account(for: caller) }
            let pid = running[caller.name]
            return DeployEdges.edge(
                from: .init(name: caller.name, pid: pid, program: caller.executable, account: account), to: name,
                newBuild: newBuild, describer: describer)
        }
    }

    /// Each vertical the new build calls, judged against what its running daemon serves.
    func calleeEdges(_ newBuild: BuildDescription) async throws -> [DeployEdge] {
        let loop = try EventLoop(name: "svc-supervisor-can-i-deploy")
        let client = ServiceClient(loop: loop, sockets: connection.sockets)
        defer {
            client.close()
            loop.shutdown()
        }
        let served = await DeployEdges.servedByCallees(of: newBuild, client: client, timeout: connection.deadline)
        return DeployEdges.calleeEdges(of: name, newBuild: newBuild, served: served)
    }

    func print(answer: DeployAnswer, edges: [DeployEdge]) {
        if json {
            Terminal.json(DeployReportJSON.document(vertical: name, answer: answer, edges: edges).serialized())
            return
        }
        switch answer {
        case .yes: Terminal.print("yes: \(name)'s new build is compatible with every running caller and callee")
        case .no: Terminal.print("no: \(name)'s new build breaks \(edges.filter(\.isBreaking).count) edge(s)")
        case .unknown: Terminal.print("no answer: some edges could not be compared, none of the others breaks")
        }
        for edge in edges { Terminal.print("  \(edge.description)") }
    }
}

/// `can-i-deploy --json`'s document.
enum DeployReportJSON {
    static func document(vertical: String, answer: DeployAnswer, edges: [DeployEdge]) -> JSONValue {
        .object([
            ("vertical", .string(vertical)), ("answer", .string(answer.rawValue)),
            ("edges", .array(edges.map(edge))),
        ])
    }

    static func edge(_ edge: DeployEdge) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("caller", .string(edge.caller)), ("callee", .string(edge.callee)),
        ]
        switch edge.outcome {
        case .compatible(let findings):
            members += [("outcome", .string("compatible")), ("findings", .array(findings.map(finding)))]
        case .breaking(let findings):
            members += [("outcome", .string("breaking")), ("findings", .array(findings.map(finding)))]
        case .unknown(let reason):
            members += [("outcome", .string("unknown")), ("reason", .string(reason)), ("findings", .array([]))]
        }
        return .object(members)
    }

    static func finding(_ finding: ContractPair.Finding) -> JSONValue {
        .object([
            ("kind", .string(finding.difference.rawValue)), ("verdict", .string(finding.verdict.rawValue)),
            ("breaking", .bool(finding.verdict == .refuse)), ("direction", .string(finding.direction.rawValue)),
            ("operation", .string(finding.operation)), ("place", .string(finding.place)),
            ("detail", .string(finding.detail)),
        ])
    }
}
