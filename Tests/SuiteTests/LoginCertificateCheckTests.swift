import Glibc
import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting

/// Over TCP with mutual TLS, `svc-supervisor login` sends nothing to an endpoint whose certificate
/// names another vertical than the one it means: svc-identity serving with clinics' certificate
/// (from `svc-supervisor certs`) at the address `VERTICALS_ENDPOINT_IDENTITY` names receives no
/// request at all, not even `daemon.describe`, and the refusal names both certificates' names.
/// With identity's own certificate the same command reaches it and the password is checked.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct LoginCertificateCheckTests {
    /// svc-identity on a free loopback port over mutual TLS with `presenting`'s certificate, its
    /// store in `state` (which must outlive it: a daemon whose folder is removed makes it again).
    static func identity(
        presenting name: String, certs: String, state: TemporaryDirectory
    ) throws -> (daemon: DaemonProcess, endpoint: String) {
        let port = try freeLoopbackPort()
        let endpoint = "tcp:127.0.0.1:\(port)"
        let daemon = try DaemonProcess(
            "svc-identity",
            environment: [
                "VERTICALS_LISTEN": endpoint, "STATE_DIRECTORY": state.path, "VERTICALS_SOCKET_DIR": state.file("none"),
                "VERTICALS_TLS_CERT": "\(certs)/\(name)/tls.crt", "VERTICALS_TLS_KEY": "\(certs)/\(name)/tls.key",
                "VERTICALS_TLS_CA": "\(certs)/\(name)/ca.crt",
                "IDENTITY_PWHASH_OPSLIMIT": "1", "IDENTITY_PWHASH_MEMLIMIT": "8192",
            ])
        return (daemon, endpoint)
    }

    /// The operator's TLS material and the endpoint of `vertical`, as the CLI reads them.
    static func environment(_ vertical: String, at endpoint: String, certs: String) -> [String: String] {
        [
            "VERTICALS_ENDPOINT_\(vertical.uppercased())": endpoint, "VERTICALS_TLS_CERT": "\(certs)/operator/tls.crt",
            "VERTICALS_TLS_KEY": "\(certs)/operator/tls.key", "VERTICALS_TLS_CA": "\(certs)/operator/ca.crt",
        ]
    }

    /// How many `operation` requests the daemon at `endpoint`, known by its certificate as
    /// `presenting`, served; nil while it does not answer yet.
    static func served(_ operation: String, presenting name: String, at endpoint: String, certs: String) async -> Int? {
        let sockets = SocketDirectory.from(environment: environment(name, at: endpoint, certs: certs))
        return try? await ServedRequests.count(of: operation, service: name, sockets: sockets)
    }

    /// Waits (15 s at most) until the daemon at `endpoint` answers as `presenting`.
    static func waitUntilServing(presenting name: String, at endpoint: String, certs: String) async throws {
        var ready = false
        for _ in 0..<150 where !ready {
            ready = await served("daemon.health", presenting: name, at: endpoint, certs: certs) != nil
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(ready, "svc-identity with \(name)'s certificate never answered at \(endpoint)")
    }

    /// `svc-supervisor login ada@example.org` in `directory` (no manifest, an empty socket folder),
    /// identity at `endpoint` over TLS, the password on standard input.
    static func login(to endpoint: String, certs: String, in directory: TemporaryDirectory) throws -> CommandResult {
        var environment = environment("identity", at: endpoint, certs: certs)
        environment["XDG_STATE_HOME"] = directory.file("home")
        environment.merge(SecretRecipientsFixture.environment(in: directory, "sessions = identity")) { $1 }
        mkdir(directory.file("sockets"), 0o700)
        return try supervisorCLI(
            ["login", "ada@example.org", "--socket-dir", directory.file("sockets")],
            environment: environment, standardInput: "correct horse battery staple\n", in: directory)
    }

    /// What `login` printed against svc-identity presenting `name`'s certificate, and the
    /// `identity.login` and `daemon.describe` requests that daemon then had served.
    static func login(toIdentityPresenting name: String) async throws -> (
        result: CommandResult, logins: Int?, describes: Int?
    ) {
        let directory = TemporaryDirectory()
        let certs = try MintedCertificates.make(for: ["identity", "clinics"], in: directory)
        let state = TemporaryDirectory()
        let (daemon, endpoint) = try identity(presenting: name, certs: certs, state: state)
        defer { withExtendedLifetime(state) { daemon.stop() } }
        try await waitUntilServing(presenting: name, at: endpoint, certs: certs)

        let result = try login(to: endpoint, certs: certs, in: directory)

        return (
            result, await served("identity.login", presenting: name, at: endpoint, certs: certs),
            await served("daemon.describe", presenting: name, at: endpoint, certs: certs)
        )
    }

    @Test func anEndpointWhoseCertificateNamesAnotherVertical_receivesNoByteOfTheLogin() async throws {
        let (result, logins, describes) = try await Self.login(toIdentityPresenting: "clinics")

        #expect(result.status == 77, "\(result.standardError)")
        #expect(
            result.standardError.contains("its certificate names verticals://clinics, not verticals://identity"),
            "\(result.standardError)")
        #expect(logins == 0)
        #expect(describes == 0, "the CLI sent a request to the impostor at all")
    }

    @Test func identitysOwnCertificate_getsThePassword() async throws {
        let (result, logins, _) = try await Self.login(toIdentityPresenting: "identity")

        // No such account: the password was sent and checked.
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("wrong e-mail address or password"), "\(result.standardError)")
        #expect(logins == 1)
    }
}
