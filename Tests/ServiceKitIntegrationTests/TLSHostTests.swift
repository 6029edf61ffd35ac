import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A real `vt-testd` on TCP with mutual TLS (the default on TCP: `VERTICALS_TLS_CERT`, `_KEY`,
/// `_CA`), called by clients presenting vertical certificates: the name in the certificate is the
/// caller, the existing rules apply to it, and rotated files are taken without a restart.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct TLSHostTests {
    let echo = TestEcho()
    let directory = TemporaryDirectory()
    let ca: TestCertificateAuthority
    let suite: SuiteFixture
    let port: UInt16

    init() throws {
        ca = try TestCertificateAuthority(in: directory)
        suite = try SuiteFixture()
        port = try freeLoopbackPort()
    }

    static func variables(_ issued: TestCertificateAuthority.Issued) -> [String: String] {
        [
            "VERTICALS_TLS_CERT": issued.certificate, "VERTICALS_TLS_KEY": issued.key,
            "VERTICALS_TLS_CA": issued.authority,
        ]
    }

    /// vt-testd serving `echo` on the port with `issued` (echo's certificate unless given).
    @discardableResult
    func startDaemon(_ issued: TestCertificateAuthority.Issued? = nil, extra: [String: String] = [:]) throws
        -> DaemonProcess
    {
        var environment = Self.variables(try issued ?? ca.issue("echo"))
        environment["VERTICALS_LISTEN"] = "tcp:127.0.0.1:\(port)"
        let daemon = try suite.start(extra: environment.merging(extra) { $1 }, waitForSocket: false)
        let port = port
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "never listened on \(port)")
        return daemon
    }

    /// A client presenting `issued` (or plain TCP when nil) that finds echo on the port.
    func client(_ issued: TestCertificateAuthority.Issued?, loop: EventLoop) -> ServiceClient {
        var environment = [
            "VERTICALS_SOCKET_DIR": suite.socketDirectory.path, "VERTICALS_ENDPOINT_ECHO": "tcp:127.0.0.1:\(port)",
        ]
        if let issued { environment.merge(Self.variables(issued)) { $1 } } else { environment["VERTICALS_TLS"] = "off" }
        return ServiceClient(
            loop: loop, sockets: SocketDirectory.from(environment: environment), defaultTimeout: .seconds(20))
    }

    /// Expects `client`'s call of echo refused with `code` (and `retryable`, when given); the
    /// error, to check more of, or nil when `what` was served.
    @discardableResult
    func expectRefused(
        _ client: ServiceClient, _ code: ErrorCode, _ what: String, retryable: Bool? = nil
    ) async -> ServiceError? {
        do {
            _ = try await client.call(echo.echo, .init(text: "refused?"))
            Issue.record("\(what) was served")
            return nil
        } catch {
            #expect(error.code == code, "\(what): \(error)")
            if let retryable { #expect(error.retryable == retryable, "\(what): \(error)") }
            return error
        }
    }

    @Test func verticalCertificates_call_overMutualTLS() async throws {
        try startDaemon()
        let loop = try EventLoop(name: "tls-host-test")
        defer { loop.shutdown() }
        let orders = client(try ca.issue("orders"), loop: loop)
        defer { orders.close() }
        #expect(try await orders.call(echo.echo, .init(text: "over mTLS")).text == "over mTLS")
    }

    @Test func noCertificate_orAnotherCAs_isRefused_andOthersAreStillServed() async throws {
        try startDaemon()
        let loop = try EventLoop(name: "tls-host-test")
        defer { loop.shutdown() }

        let plain = client(nil, loop: loop)
        defer { plain.close() }
        await expectRefused(plain, .unavailable, "a caller with no certificate")

        let other = try TestCertificateAuthority(in: directory, name: "other-ca").issue("orders")
        let stranger = client(
            TestCertificateAuthority.Issued(certificate: other.certificate, key: other.key, authority: ca.certificate),
            loop: loop)
        defer { stranger.close() }
        // The server's alert (unknown CA) reaches the caller as what it is: a certificate refused,
        // which no retry with the same certificate mends; not a callee that cannot be reached.
        await expectRefused(stranger, .permissionDenied, "a caller another CA signed", retryable: false)

        let honest = client(try ca.issue("orders"), loop: loop)
        defer { honest.close() }
        #expect(try await honest.call(echo.echo, .init(text: "still serving")).text == "still serving")
    }

    @Test func serverCertificateNamingAnotherVertical_isRefusedByTheCaller() async throws {
        try startDaemon(try ca.issue("ledger"))
        let loop = try EventLoop(name: "tls-host-test")
        defer { loop.shutdown() }
        let orders = client(try ca.issue("orders"), loop: loop)
        defer { orders.close() }
        let error = await expectRefused(
            orders, .permissionDenied, "echo on a server whose certificate names ledger", retryable: false)
        #expect(
            error?.message.contains("verticals://ledger, not verticals://echo") == true,
            "\(error?.message ?? "served")")
    }

    @Test func allowedPeers_admitOnlyTheNamedVerticals() async throws {
        try startDaemon(extra: ["VERTICALS_ALLOWED_PEERS": "catalog"])
        let loop = try EventLoop(name: "tls-host-test")
        defer { loop.shutdown() }
        let orders = client(try ca.issue("orders"), loop: loop)
        defer { orders.close() }
        let error = await expectRefused(orders, .permissionDenied, "a vertical that did not declare the dependency")
        #expect(error?.detail("peer") == "orders", "\(error?.message ?? "served")")
        let catalog = client(try ca.issue("catalog"), loop: loop)
        defer { catalog.close() }
        #expect(try await catalog.call(echo.echo, .init(text: "declared")).text == "declared")
        // The vertical itself (its own `--probe`, as a Kubernetes exec probe runs it) is always admitted.
        let itself = client(try ca.issue("echo"), loop: loop)
        defer { itself.close() }
        #expect(try await itself.call(echo.echo, .init(text: "itself")).text == "itself")
    }

    /// docs/PROTOCOL.md § 1a: a client certificate with no `verticals://` name passes the handshake
    /// and is refused by the daemon on id 0, with no `peer` detail, even with no allow-list.
    @Test func certificateNamingNoVertical_isRefusedOnIdZero_withoutDetails() throws {
        try startDaemon()
        let nameless = try RawClient.overTLS(
            host: "127.0.0.1", port: port, files: try ca.issue("nameless", uri: ""), receiveTimeout: .seconds(20))
        let refusal = try #require(nameless.receiveError(), "no error frame for a certificate without a name")
        #expect(refusal.envelope.correlationID == 0)
        #expect(refusal.error.code == .permissionDenied)
        #expect(
            refusal.error.message.hasPrefix("a certificate that names no vertical (verticals://NAME) may not call echo")
        )
        #expect(refusal.error.details.isEmpty)
    }

    @Test func internalOperations_onlyForInternalPeers() async throws {
        try startDaemon(extra: ["VERTICALS_INTERNAL_OPERATIONS": "echo", "VERTICALS_INTERNAL_PEERS": "orders"])
        let loop = try EventLoop(name: "tls-host-test")
        defer { loop.shutdown() }
        let orders = client(try ca.issue("orders"), loop: loop)
        defer { orders.close() }
        #expect(try await orders.call(echo.echo, .init(text: "internal")).text == "internal")
        let catalog = client(try ca.issue("catalog"), loop: loop)
        defer { catalog.close() }
        await expectRefused(catalog, .permissionDenied, "an internal operation called by catalog")
    }

    /// By default the daemon watches the files' folder (inotify: an idle daemon wakes for
    /// nothing); `VERTICALS_TLS_RELOAD_SECONDS` makes it look on a timer instead.
    @Test(arguments: [nil, "0.2"])
    func rotatedFiles_serveNewConnections_andEstablishedOnesKeepGoing(reloadSeconds: String?) async throws {
        // The daemon's files live at fixed paths, as cert-manager mounts them.
        let served = TestCertificateAuthority.Issued(
            certificate: directory.file("tls.crt"), key: directory.file("tls.key"), authority: directory.file("ca.crt"))
        let first = try ca.issue("echo")
        try Self.install(first, at: served)
        try startDaemon(served, extra: reloadSeconds.map { ["VERTICALS_TLS_RELOAD_SECONDS": $0] } ?? [:])
        let loop = try EventLoop(name: "tls-host-test")
        defer { loop.shutdown() }
        let old = client(try ca.issue("orders"), loop: loop)
        defer { old.close() }
        #expect(try await old.call(echo.echo, .init(text: "before")).text == "before")

        // Rotation to a new CA: only a client of the new CA can connect afterwards.
        let next = try TestCertificateAuthority(in: directory, name: "next-ca")
        try Self.install(try next.issue("echo"), at: served)
        let fresh = client(try next.issue("orders"), loop: loop)
        defer { fresh.close() }
        var answered = false
        for _ in 0..<50 where !answered {
            answered = (try? await fresh.call(echo.echo, .init(text: "after"), timeout: .seconds(2)))?.text == "after"
            if !answered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(answered, "the rotated certificate was never served")
        #expect(
            try await old.call(echo.echo, .init(text: "still")).text == "still",
            "the established connection was dropped")
    }

    /// Watching for rotated files costs an idle daemon nothing: it used to look every 5 s
    /// (12 wake-ups a minute); now only a change in the files' folder wakes it.
    @Test func idleTLSDaemon_wakesNever() async throws {
        let daemon = try startDaemon()
        let loop = try EventLoop(name: "tls-host-test")
        defer { loop.shutdown() }
        let caller = client(try ca.issue("orders"), loop: loop)
        defer { caller.close() }
        #expect(try await caller.call(echo.echo, .init(text: "then idle")).text == "then idle")
        // 6 s windows: a look every 5 s (the old default) shows in each of them.
        let wakeUps = try await DaemonProcess.quietestWindow(of: daemon.pid, window: .seconds(6))
        #expect(wakeUps == 0, "a TLS vt-testd woke \(wakeUps) times in every 6 s window while idle")
    }

    /// Copies `issued`'s files over `target`'s, each by a rename (as a rotation replaces them).
    static func install(_ issued: TestCertificateAuthority.Issued, at target: TestCertificateAuthority.Issued) throws {
        for (from, to) in [
            (issued.key, target.key), (issued.certificate, target.certificate), (issued.authority, target.authority),
        ] {
            guard let text = readFile(from), let handle = fopen(to + ".new", "w") else {
                throw RawSocketError("copy \(from)")
            }
            fputs(text, handle)
            fclose(handle)
            guard rename(to + ".new", to) == 0 else { throw RawSocketError("rename \(to)") }
        }
    }
}
