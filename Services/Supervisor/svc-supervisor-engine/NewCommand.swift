import VerticalsSupervisorCommands
import ArgumentParser
import Glibc
import VerticalsServiceKit
import VerticalsScaffold
import VerticalsSupervisor

/// `svc-supervisor new NAME [--calls A,B]`: adds a vertical to the product (this checkout, or one made by `init`) in one command,
/// after Boardy's module templates — its contract, its service, its tests, its manifest entry
/// its targets and its systemd units — or changes nothing and says why.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract:
            "Create a new vertical in this product (or checkout): contract, service, tests, manifest entry, targets.",
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

    @Option(
        name: .long,
        help: "The product's root folder (default: the nearest folder up with Package.swift and deploy/suite.toml).")
    var root: String?

    @OptionGroup var writing: ScaffoldWriting

    func run() throws {
        try ScaffoldWriting.refusing {
            let peers = calls.flatMap { $0.split(separator: ",").map { String($0) } }.filter { !$0.isEmpty }
            guard let root = root ?? Scaffold.findRoot(from: ProgramPaths.currentDirectory()) else {
                throw ScaffoldError.checkout(
                    "no Verticals product here: run it inside one (this checkout, or one made by `svc-supervisor init`), or pass --root"
                )
            }
            var scaffold = try Scaffold(name: name, calls: peers, root: root)
            try scaffold.regenerateSystemdUnits(reading: ManifestParser.parsePlanned)
            try writing.write(
                scaffold.apply, report: { Self.report(scaffold, written: $0) }, root: root,
                tool: scaffold.layout.contractsTool, what: scaffold.vertical.name)
        }
    }

    /// What `new` says it did, then what to do next: with no suite running, `make run` starts one;
    /// with one running, `make run` would refuse its run folder, and `make build` then `reload`
    /// adds the vertical to it.
    static func report(_ scaffold: Scaffold, written: Bool) -> String {
        let v = scaffold.vertical
        let calling = scaffold.calls.isEmpty ? "" : " (calls \(scaffold.calls.map(\.name).joined(separator: ", ")))"
        let lines = scaffold.newFiles.map { "  + \($0.path)" } + scaffold.editedFiles.map { "  ~ \($0.path)" }
        return """
            \(written ? "created" : "would create") vertical \(v.name)\(calling):
            \(lines.joined(separator: "\n"))
            next:
              make test                             # builds \(v.executable) and runs its tests with everyone else's
              make run                              # no suite running: starts it, \(v.name) included
              make build && svc-supervisor reload   # a suite running (make run): \(v.name) joins it
              svc-supervisor call \(v.name) hello '{"name": "Ada"}'
              svc-supervisor open 'verticals://\(v.name)/hello?name=Ada'
            """
    }

    /// Builds the product's contract tool `tool` (`vt-contracts` here; with the new contract compiled
    /// in) and runs its `update`, which writes the golden fixtures of `what` and adds it to the lock:
    /// the same as `make contracts-update`. The build is the one `make test` reuses.
    static func updateContracts(root: String, tool: String, what: String, jobs: Int?) throws {
        Terminal.print(
            "writing \(what)'s golden fixtures and lock (swift build --product \(tool), "
                + "minutes the first time; \(tool) update)…")
        let quoted = "'" + root.replacing("'", with: "'\\''") + "'"
        // On a terminal, SwiftPM's one progress line shows the build moving; elsewhere (a log, a
        // test) its line per step would bury the report, and only its errors are kept.
        let progress = isatty(STDOUT_FILENO) == 1 ? "" : " >/dev/null"
        let script =
            SwiftToolchain.shellPrefix
            + "cd \(quoted) && swift build \(jobs.map { "-j \($0) " } ?? "")--product \(tool)\(progress) && "
            + "\"$(swift build --show-bin-path)/\(tool)\" update --root \(quoted)"
        fflush(nil) // every stream: the report above goes out before the child's lines
        let status = system(script)
        guard status == 0 else {
            throw ScaffoldError.checkout(
                "\(what) was created, but writing its contract fixtures failed (status \(status)); "
                    + "fix what the build says, then run: make contracts-update")
        }
    }
}
