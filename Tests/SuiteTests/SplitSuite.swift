import Foundation
import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting

/// The reference suite split across two "hosts" (network namespaces of a ``NetworkLab``), each
/// under its own `svc-supervisor up` with its own manifest: identity, clinics and notifications
/// on host `a`, appointments and records on host `b`, each service on `tcp:NAME:PORT` with mutual
/// TLS from `svc-supervisor certs`, the other host's services declared remote (an `endpoint`, no
/// `executable`). Names resolve through `/etc/netns/<namespace>/hosts`, as a cluster's DNS
/// resolves Service names. The test's client lives on a third host, `op`, as the operator.
final class SplitSuite {
    /// Where each vertical runs, and its port.
    static let placement: [(name: String, host: String, port: UInt16)] = [
        ("identity", "a", 7001), ("clinics", "a", 7002), ("notifications", "a", 7003),
        ("appointments", "b", 7004), ("records", "b", 7005),
    ]
    /// The reference suite's graph (deploy/suite.toml's `depends_on`).
    static let dependsOn: [String: [String]] = [
        "identity": [], "clinics": ["identity"], "notifications": ["identity"],
        "appointments": ["identity", "clinics", "notifications"], "records": ["identity", "clinics"],
    ]
    /// Each vertical's own `env` on any host (cheap Argon2id, fast outbox retries).
    static let environment: [String: [String: String]] = [
        "identity": ["IDENTITY_PWHASH_OPSLIMIT": "1", "IDENTITY_PWHASH_MEMLIMIT": "8192"],
        "notifications": ["VERTICALS_INTERNAL_OPERATIONS": "send"],
        "appointments": ["APPOINTMENTS_RETRY_MAX_MS": "200"],
    ]

    let lab: NetworkLab
    let files = TemporaryDirectory()
    /// The folder `svc-supervisor certs` wrote.
    var certificates: String { files.file("certs") }
    /// Host a's supervisor; its client is the operator's, on host `op`.
    let hostA: SupervisedSuite
    /// Host b's supervisor.
    let hostB: SupervisedSuite
    var client: ServiceClient { hostA.client }

    /// Builds the lab, mints the certificates and writes both manifests, with `extra` added to
    /// the `env` of the named services; nothing runs until ``up()``.
    init(extra: [String: [String: String]] = [:]) throws {
        let lab = try NetworkLab(hosts: ["a", "b", "op"])
        self.lab = lab
        var names: [String: String] = [:]
        for service in Self.placement { names[service.name] = lab.address(of: service.host) }
        try lab.writeHosts(names)
        // One manifest naming every service, for `certs`; then one per host.
        let certificates = files.file("certs")
        let whole = files.file("suite.toml")
        try Self.manifest(for: nil, certificates: certificates, extra: extra).write(
            toFile: whole, atomically: true, encoding: .utf8)
        let minted = try runCommand("svc-supervisor", ["certs", certificates, "--manifest", whole], in: files)
        guard minted.status == 0 else { throw RawSocketError("svc-supervisor certs: \(minted.standardError)") }
        let sockets = SocketDirectory.from(
            environment: Self.endpoints(in: lab, socketDirectory: files.file("none"))
                .merging(Self.variables(Self.files(in: certificates, of: "operator"))) { $1 })
        hostA = try SupervisedSuite(
            manifest: Self.manifest(for: "a", certificates: certificates, extra: extra),
            services: Self.placement.filter { $0.host == "a" }.map(\.name), host: (lab, "a"), clientSockets: sockets)
        hostB = try SupervisedSuite(
            manifest: Self.manifest(for: "b", certificates: certificates, extra: extra),
            services: Self.placement.filter { $0.host == "b" }.map(\.name), host: (lab, "b"))
    }

    /// Every vertical's `VERTICALS_ENDPOINT_<NAME>` by address, as host `op` reaches it.
    static func endpoints(in lab: NetworkLab, socketDirectory: String) -> [String: String] {
        var environment = ["VERTICALS_SOCKET_DIR": socketDirectory]
        for service in placement {
            environment["VERTICALS_ENDPOINT_\(service.name.uppercased())"] =
                "tcp:\(lab.address(of: service.host)):\(service.port)"
        }
        return environment
    }

    /// The manifest of `host` (every service local when nil): its services with their
    /// executable, the others remote.
    static func manifest(for host: String?, certificates: String, extra: [String: [String: String]]) -> String {
        var text = """
            [defaults]
            certificates = "\(certificates)"
            backoff = { initial = "50ms", max = "500ms", multiplier = 2.0 }
            budget = { restarts = 1000, window = "60s" }
            stop_timeout = "5s"

            """
        for service in placement {
            text += "[services.\(service.name)]\n"
            text += "endpoint = \"tcp:\(service.name):\(service.port)\"\n"
            text +=
                "depends_on = [\(dependsOn[service.name, default: []].map { "\"\($0)\"" }.joined(separator: ", "))]\n"
            guard host == nil || host == service.host else { continue }
            text += "executable = \"svc-\(service.name)\"\n"
            let env = environment[service.name, default: [:]].merging(extra[service.name, default: [:]]) { $1 }
            if !env.isEmpty {
                text +=
                    "env = { \(env.sorted { $0.key < $1.key }.map { "\($0.key) = \"\($0.value)\"" }.joined(separator: ", ")) }\n"
            }
        }
        return text
    }

    /// The three files `svc-supervisor certs` wrote for `name` (a service, or `operator`).
    func files(of name: String) -> TestCertificateAuthority.Issued {
        Self.files(in: certificates, of: name)
    }

    /// The three files of `name` in certificates folder `certificates`.
    static func files(in certificates: String, of name: String) -> TestCertificateAuthority.Issued {
        TestCertificateAuthority.Issued(
            certificate: "\(certificates)/\(name)/tls.crt", key: "\(certificates)/\(name)/tls.key",
            authority: "\(certificates)/\(name)/ca.crt")
    }

    var operatorFiles: TestCertificateAuthority.Issued { files(of: "operator") }

    /// `VERTICALS_TLS_CERT`, `_KEY` and `_CA` for `issued`.
    static func variables(_ issued: TestCertificateAuthority.Issued) -> [String: String] {
        [
            "VERTICALS_TLS_CERT": issued.certificate, "VERTICALS_TLS_KEY": issued.key,
            "VERTICALS_TLS_CA": issued.authority,
        ]
    }

    /// The address and port of `service`, as the operator's host reaches it.
    func address(of service: String) -> (host: String, port: UInt16) {
        let placed = Self.placement.first { $0.name == service }!
        return (lab.address(of: placed.host), placed.port)
    }

    /// Starts both supervisors and waits until every service of each is ready; moves the
    /// operator's client loop onto host `op` first.
    func up() async throws {
        let operatorHost = lab.namespace(of: "op")
        try await client.loop.submit { try NetworkNamespace.enter(operatorHost) }
        try await hostA.up()
        try await hostB.up()
        #expect(
            await hostA.waitUntilAllReady(timeout: .seconds(90)),
            "host a's services never all became ready: \(hostA.status())")
        #expect(
            await hostB.waitUntilAllReady(timeout: .seconds(90)),
            "host b's services never all became ready: \(hostB.status())")
    }

    /// A client on host `op` presenting `issued` (plain TCP when nil) that finds every vertical by address.
    func caller(presenting issued: TestCertificateAuthority.Issued?, loop: EventLoop) -> ServiceClient {
        var environment = Self.endpoints(in: lab, socketDirectory: files.file("none"))
        if let issued {
            environment.merge(Self.variables(issued)) { $1 }
        } else {
            environment["VERTICALS_TLS"] = "off-insecure"
        }
        return ServiceClient(
            loop: loop, sockets: SocketDirectory.from(environment: environment), defaultTimeout: .seconds(10))
    }

    /// An event loop whose connections start on host `op`.
    func operatorLoop(_ name: String) async throws -> EventLoop {
        let loop = try EventLoop(name: name)
        let operatorHost = lab.namespace(of: "op")
        try await loop.submit { try NetworkNamespace.enter(operatorHost) }
        return loop
    }

    /// A raw TCP client on host `op` connected to `service` (no TLS: what a stranger sends).
    func raw(to service: String, receiveTimeout: Duration = .seconds(10)) throws -> RawClient {
        let (host, port) = address(of: service)
        return try NetworkNamespace.run(in: lab.namespace(of: "op")) {
            try RawClient(host: host, port: port, receiveTimeout: receiveTimeout)
        }
    }

    /// A raw client on host `op` whose bytes reach `service` inside mutual TLS, as the operator.
    func rawOverTLS(to service: String, receiveTimeout: Duration = .seconds(10)) throws -> RawClient {
        let (host, port) = address(of: service)
        return try RawClient.overTLS(
            host: host, port: port, files: operatorFiles, namespace: lab.namespace(of: "op"),
            receiveTimeout: receiveTimeout)
    }

    /// Stops both supervisors (b first: its services call a's).
    func down() {
        hostB.down()
        hostA.down()
    }

    deinit {
        down()
    }
}
