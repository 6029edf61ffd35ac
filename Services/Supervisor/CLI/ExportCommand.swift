import ArgumentParser
import VerticalsSupervisor

/// `svc-supervisor export systemd [--prefix /usr/local] [--manifest deploy/suite.toml] [--out deploy/systemd]`:
/// the suite's systemd units, generated from its manifest.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Generate files for another service manager from the manifest.",
        subcommands: [Systemd.self])

    /// `export systemd`.
    struct Systemd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "systemd",
            abstract: "Write a .socket and .service per vertical, verticals.target, svc-supervisor.service, "
                + "and sysusers.d and tmpfiles.d files.",
            discussion: """
                Bare executable names become <prefix>/bin/<name>; programs need not exist yet. Files of
                the folder that the manifest no longer produces (verticals-*.socket, verticals-*.service)
                are removed. Exit status: 0, or 65 (EX_DATAERR) when the manifest has problems or cannot
                run under systemd, 73 (EX_CANTCREAT) when a file cannot be written.
                """)

        @Option(name: .long, help: "The installation prefix the units run programs from.")
        var prefix = "/usr/local"

        @Option(name: .long, help: "The manifest.")
        var manifest = "deploy/suite.toml"

        @Option(name: .long, help: "The folder to write.")
        var out = "deploy/systemd"

        func validate() throws {
            guard prefix.hasPrefix("/") else { throw ValidationError("--prefix must be an absolute path, not \(prefix)") }
        }

        func run() throws {
            let layout = SystemdLayout(prefix: prefix)
            let (parsed, problems) = ManifestParser.load(
                path: manifest, binDirectory: layout.binDirectory, checkExecutables: false)
            guard problems.isEmpty else {
                for problem in problems { print("\(manifest): \(problem)") }
                throw ExitCode(65)
            }
            let files: [String: String]
            do {
                files = try SystemdExport.files(for: parsed, layout: layout)
            } catch {
                print("\(manifest): \(error)")
                throw ExitCode(65)
            }
            do {
                let report = try GeneratedFolder(path: out).replace(with: files, owning: Self.isOwned)
                for path in report.written { print("wrote \(out)/\(path)") }
                for path in report.removed { print("removed \(out)/\(path) (no longer in the manifest)") }
                print("\(files.count) files in \(out), \(report.written.count) changed")
            } catch {
                print("\(error)")
                throw ExitCode(73)
            }
        }

        /// The files of the folder an export may remove: per-vertical units.
        static func isOwned(_ name: String) -> Bool {
            name.hasPrefix("verticals-") && (name.hasSuffix(".socket") || name.hasSuffix(".service"))
        }
    }
}
