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
            settings, and this process's environment against the supervisor's.
            Exit status: 0 when valid, 65 (EX_DATAERR) when not.
            """)

    @Option(name: .long, help: "The manifest.")
    var manifest = "deploy/suite.toml"

    @Option(
        name: .long, help: "Also check socket path lengths for this run directory (sockets go in <run-dir>/sockets).")
    var runDir: String?

    @Option(name: .long, help: "Where bare executable names are found (default: svc-supervisor's own folder).")
    var binDir: String?

    @Flag(name: .long, help: "Print every key a manifest takes, with its type, default and meaning (Markdown), and check nothing.")
    var listKeys = false

    func run() throws {
        if listKeys {
            print(ManifestKeyReference.markdown(), terminator: "")
            return
        }
        let (parsed, parseProblems) = ManifestParser.load(path: manifest, binDirectory: binDir ?? ProgramPaths.ownDirectory())
        var problems = parseProblems
        if let runDir {
            let absolute = runDir.hasPrefix("/") ? runDir : "\(ProgramPaths.currentDirectory())/\(runDir)"
            problems += parsed.socketPathProblems(socketDirectory: "\(absolute)/sockets")
        }
        for service in parsed.services {
            problems += DaemonSettings.declaration.problems(in: service.environment).map {
                ManifestError(service: service.name, key: "env", $0.description)
            }
        }
        problems += SupervisorSettings.declaration.problems(in: ProcessEnvironment.current).map {
            ManifestError(key: "svc-supervisor's environment", $0.description)
        }
        guard problems.isEmpty else {
            for problem in problems { print("\(manifest): \(problem)") }
            print("\(problems.count) problem\(problems.count == 1 ? "" : "s")")
            throw ExitCode(65)
        }
        print("ok: \(parsed.services.count) service\(parsed.services.count == 1 ? "" : "s")")
    }
}
