import ArgumentParser
import VerticalsCertificates
import VerticalsDeploy
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorCommands

/// `svc-supervisor certs DIR [--manifest deploy/suite.toml] [--namespace verticals] [--days 365] [--force]`:
/// a development suite's certificates for mutual TLS, one command (``SuiteCertificates``).
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Mint a suite CA and a TLS certificate for each service and for the operator.",
        discussion: """
            Writes DIR/ca.crt and DIR/ca.key (the suite CA; keep ca.key off the hosts), and for each
            service of the manifest and for the operator DIR/NAME/tls.crt, tls.key and ca.crt, the
            layout of a cert-manager TLS Secret. Each certificate names its holder as
            URI:verticals://NAME (what a callee checks), with the DNS names of its Kubernetes Service
            in --namespace. A service runs with VERTICALS_TLS_CERT=DIR/NAME/tls.crt,
            VERTICALS_TLS_KEY=DIR/NAME/tls.key and VERTICALS_TLS_CA=DIR/NAME/ca.crt; the CLI calls
            over TCP as the operator with DIR/operator's. Keys are 0600 and each folder 0700 (DIR
            0711: a service's user passes through it to its own folder, which `up` gives it).
            Exit status: 0, 65 (EX_DATAERR) for a manifest with problems, 73 (EX_CANTCREAT) when DIR
            holds certificates already (--force replaces them) or a file cannot be written.
            """)

    @Argument(help: "The folder to write.")
    var directory: String

    @Option(name: .long, help: "The manifest whose services get a certificate.")
    var manifest = "deploy/suite.toml"

    @Option(
        name: .long,
        help:
            "The Kubernetes namespace of the Services named in each certificate (default: the manifest's [suite] name, verticals)."
    )
    var namespace: String?

    @Option(name: .long, help: "Days the certificates are valid.")
    var days = 365

    @Flag(name: .long, help: "Replace the certificates DIR holds (those of the old CA stop working).")
    var force = false

    func validate() throws {
        guard days > 0 else { throw ValidationError("--days must be at least 1, not \(days)") }
        if let namespace, !ExportCommand.Kubernetes.isLabel(namespace) {
            throw ValidationError("--namespace must be a DNS label (a-z, 0-9 and '-'), not \(namespace)")
        }
    }

    func run() throws {
        let (parsed, problems) = ManifestParser.load(path: manifest, binDirectory: "/", checkExecutables: false)
        guard problems.isEmpty else {
            for problem in problems { Terminal.print("\(manifest): \(problem)") }
            throw ExitCode(65)
        }
        let services = parsed.services.map(\.name)
        do {
            let namespace = KubernetesLayout(suite: parsed.suiteName, namespace: namespace).namespace
            let minted = try SuiteCertificates.mint(services: services, namespace: namespace, days: days)
            let written = try CertificateFolder(path: directory).write(minted, replacing: force)
            Terminal.print(
                "wrote \(written.count) files in \(directory): a CA, and a certificate for \(services.joined(separator: ", ")) and the operator"
            )
            Terminal.print(
                "a service: VERTICALS_TLS_CERT=\(directory)/NAME/tls.crt VERTICALS_TLS_KEY=\(directory)/NAME/tls.key VERTICALS_TLS_CA=\(directory)/NAME/ca.crt"
            )
        } catch {
            Terminal.error("svc-supervisor: \(error)")
            throw ExitCode(73)
        }
    }
}
