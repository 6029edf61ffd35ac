import Glibc
import VerticalsSupervisorCommands
import ArgumentParser
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient

/// `svc-supervisor export systemd [--prefix /usr/local] [--manifest deploy/suite.toml] [--out deploy/systemd] [--host NAME]`
/// and `svc-supervisor export kubernetes [--namespace NAME] [--image REF] [--manifest …] [--out deploy/kubernetes]`:
/// the suite's systemd units or Kubernetes objects, generated from its manifest, named after its
/// `[suite] name` (`verticals` when it gives none).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Generate files for another service manager from the manifest.",
        subcommands: [Systemd.self, Kubernetes.self])

    /// `export systemd`.
    struct Systemd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "systemd",
            abstract: "Write a .socket and .service per vertical, SUITE.target, svc-supervisor.service, "
                + "sysusers.d and tmpfiles.d files, and SUITE-secrets.conf.",
            discussion: """
                Bare executable names become <prefix>/bin/<name>; programs need not exist yet.
                Every name starts from the manifest's [suite] name (SUITE; verticals when it gives
                none): units SUITE-NAME.socket and .service, users SUITE-NAME, group SUITE, sockets
                in /run/SUITE, state in /var/lib/SUITE, sysusers.d/SUITE.conf, tmpfiles.d/SUITE.conf,
                and SUITE-supervisor.service for a suite other than verticals, so two products
                exported for one host share no name.
                SUITE-secrets.conf names the vertical that receives each kind of secret (the
                manifest's receives): install it beside the units, owned by root, for login, admin,
                password and logout to read. Files of
                the folder that the manifest no longer produces (SUITE-*.socket, SUITE-*.service)
                are removed. Exit status: 0, or 65 (EX_DATAERR) when the manifest has problems or cannot
                run under systemd, 73 (EX_CANTCREAT) when a file cannot be written.
                """)

        @Option(name: .long, help: "The installation prefix the units run programs from.")
        var prefix = "/usr/local"

        @Option(name: .long, help: "The manifest.")
        var manifest = "deploy/suite.toml"

        @Option(name: .long, help: "The folder to write.")
        var out = "deploy/systemd"

        @Option(
            name: .long,
            help:
                "Write the units of this host of a manifest that places services (host = \"NAME\"): the others are reached at their endpoint."
        )
        var host: String?

        func validate() throws {
            guard prefix.hasPrefix("/") else {
                throw ValidationError("--prefix must be an absolute path, not \(prefix)")
            }
        }

        func run() throws {
            let prefix = prefix
            try ExportCommand.write(
                manifest: manifest, binDirectory: SystemdLayout(prefix: prefix).binDirectory, to: out,
                owning: { Self.isOwned($1, layout: SystemdLayout(prefix: prefix, for: $0)) }
            ) {
                try SystemdExport.files(for: $0, layout: SystemdLayout(prefix: prefix, for: $0), host: host)
            }
        }

        /// The files of the folder an export may remove: the suite's per-vertical units
        /// (`<suite>-*.socket`, `<suite>-*.service`).
        static func isOwned(_ name: String, layout: SystemdLayout) -> Bool {
            name.hasPrefix(layout.namePrefix) && (name.hasSuffix(".socket") || name.hasSuffix(".service"))
        }
    }

    /// `export kubernetes`.
    struct Kubernetes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kubernetes",
            abstract: "Write a Namespace, NetworkPolicies, and per vertical a ServiceAccount, ConfigMap, Service, "
                + "NetworkPolicy and StatefulSet (or Deployment), a Containerfile and a README.",
            discussion: """
                Bare executable names become /usr/local/bin/<name> in the image the Containerfile builds. The
                daemons need TCP endpoints with mutual TLS (VERTICALS_LISTEN, VERTICALS_ENDPOINT_<NAME>); the
                folder's README.md says what does not map. Files of the folder that the manifest no longer
                produces (*.yaml) are removed. Exit status: 0, or 65 (EX_DATAERR) when the manifest has problems
                or cannot run on Kubernetes, 73 (EX_CANTCREAT) when a file cannot be written.
                """)

        @Option(name: .long, help: "The manifest.")
        var manifest = "deploy/suite.toml"

        @Option(name: .long, help: "The namespace of every object (default: the manifest's [suite] name, verticals).")
        var namespace: String?

        @Option(
            name: .long,
            help:
                "The image every container runs, built from the Containerfile (default: localhost/<suite name>:<version>)."
        )
        var image: String?

        @Option(name: .long, help: "The folder to write.")
        var out = "deploy/kubernetes"

        func validate() throws {
            if let namespace, !Self.isLabel(namespace) {
                throw ValidationError(
                    "--namespace must be a DNS label (a-z, 0-9 and '-', at most 63, starting and ending alphanumeric), "
                        + "not \(namespace)")
            }
            if let image, image.isEmpty || image.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
                throw ValidationError(
                    "--image must be an image reference such as registry.example/verticals:1.0, not \(image)")
            }
        }

        func run() throws {
            let (namespace, image) = (namespace, image)
            try ExportCommand.write(
                manifest: manifest, binDirectory: KubernetesLayout().binDirectory, to: out,
                owning: { KubernetesExport.isOwned($1) }
            ) {
                try KubernetesExport.files(
                    for: $0, layout: KubernetesLayout(suite: $0.suiteName, namespace: namespace, image: image))
            }
        }

        /// An RFC 1123 label, what a namespace's name must be.
        static func isLabel(_ text: String) -> Bool {
            let scalars = Array(text.unicodeScalars)
            guard (1...63).contains(scalars.count) else { return false }
            let alphanumeric: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            return alphanumeric(scalars[0]) && alphanumeric(scalars[scalars.count - 1])
                && scalars.allSatisfy { alphanumeric($0) || $0 == "-" }
        }
    }
}

extension ExportCommand {
    /// What every export does around its own files: loads `manifest` (its problems: exit 65),
    /// makes the files (refused: 65), replaces the generated folder `out` (a file that cannot be
    /// written: 73), and prints each change.
    static func write(
        manifest: String, binDirectory: String, to out: String, owning isOwned: (Manifest, String) -> Bool,
        files make: (Manifest) throws -> [String: String]
    ) throws {
        let (parsed, problems) = ManifestParser.load(
            path: manifest, binDirectory: binDirectory, checkExecutables: false)
        guard problems.isEmpty else {
            for problem in problems { Terminal.print("\(manifest): \(problem)") }
            throw ExitCode(65)
        }
        let files: [String: String]
        do {
            files = try make(parsed)
        } catch {
            Terminal.print("\(manifest): \(error)")
            throw ExitCode(65)
        }
        // Root writes units a later `make install` or systemd takes as they are: into a folder
        // only root can change, never one another user could swap them in.
        if geteuid() == 0 {
            let absolute = out.hasPrefix("/") ? out : "\(RunDirectory(".").path)/\(out)"
            do {
                try RunDirectory.makeDirectories(absolute, mode: 0o755)
            } catch {
                Terminal.print("\(error)")
                throw ExitCode(73)
            }
            if let problem = ProgramWriters.pathProblem(absolute, uid: 0) {
                Terminal.print("refused to write \(out) as root: \(problem)")
                throw ExitCode(73)
            }
        }
        do {
            let report = try GeneratedFolder(path: out).replace(with: files) { isOwned(parsed, $0) }
            for path in report.written { Terminal.print("wrote \(out)/\(path)") }
            for path in report.removed { Terminal.print("removed \(out)/\(path) (no longer in the manifest)") }
            Terminal.print("\(files.count) files in \(out), \(report.written.count) changed")
        } catch {
            Terminal.print("\(error)")
            throw ExitCode(73)
        }
    }
}
