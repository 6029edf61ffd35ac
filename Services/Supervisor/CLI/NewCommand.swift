import ArgumentParser
import Glibc
import ServiceKit
import SupervisorEngine

/// `svc-supervisor new NAME [--calls A,B]`: adds a vertical to the checkout in one command,
/// after Boardy's module templates — its contract, its service, its tests, its manifest entry
/// its targets and its systemd units — or changes nothing and says why.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new vertical in this checkout: contract, service, tests, manifest entry, targets.",
        discussion: """
            Example:
              svc-supervisor new billing --calls identity
            NAME is a lower-case letter followed by lower-case letters or digits. It refuses a name
            that exists, and then changes nothing. Exit status: 0 when created, 64 when refused.
            """)

    @Argument(help: "The vertical's name, e.g. billing.")
    var name: String

    @Option(name: .long, parsing: .singleValue, help: "Verticals it calls, comma-separated (its depends_on).")
    var calls: [String] = []

    @Option(name: .long, help: "The checkout's root folder (default: the nearest folder up with Package.swift and deploy/suite.toml).")
    var root: String?

    @Flag(name: .long, help: "List what would be written, and write nothing.")
    var dryRun = false

    func run() throws {
        do {
            let peers = calls.flatMap { $0.split(separator: ",").map { String($0) } }.filter { !$0.isEmpty }
            guard let root = root ?? Scaffold.findRoot(from: Self.currentDirectory()) else {
                throw ScaffoldError.checkout("no Verticals checkout here: run it inside one, or pass --root")
            }
            var scaffold = try Scaffold(name: name, calls: peers, root: root)
            try scaffold.regenerateSystemdUnits()
            if !dryRun { try scaffold.apply() }
            print(Self.report(scaffold, written: !dryRun))
        } catch let error as ScaffoldError {
            StandardError.write("error: \(error)\n")
            throw ExitCode(64)
        }
    }

    static func report(_ scaffold: Scaffold, written: Bool) -> String {
        let v = scaffold.vertical
        let calling = scaffold.calls.isEmpty ? "" : " (calls \(scaffold.calls.map(\.name).joined(separator: ", ")))"
        let lines = scaffold.newFiles.map { "  + \($0.path)" } + scaffold.editedFiles.map { "  ~ \($0.path)" }
        return """
            \(written ? "created" : "would create") vertical \(v.name)\(calling):
            \(lines.joined(separator: "\n"))
            next:
              make test                        # builds \(v.executable) and runs its tests with everyone else's
              make run                         # starts the suite, \(v.name) included
              svc-supervisor call \(v.name) hello '{"name": "Ada"}'
              svc-supervisor open 'verticals://\(v.name)/hello?name=Ada'
            """
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        return getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
    }
}
