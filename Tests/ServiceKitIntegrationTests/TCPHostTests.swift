import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

/// A real `vt-testd` served over TCP loopback (`VERTICALS_LISTEN`, `VERTICALS_TLS=off`), called
/// through `VERTICALS_ENDPOINT_ECHO`; the plain-TCP rules; hostile clients over TCP.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct TCPHostTests {
    let echo = TestEcho()

    /// A daemon on `tcp:127.0.0.1:<free port>` and a client that finds it through the environment.
    final class TCPFixture {
        let suite: SuiteFixture
        let port: UInt16
        let loop: EventLoop
        let client: ServiceClient
        var daemon: DaemonProcess?

        init(extra: [String: String] = [:]) throws {
            suite = try SuiteFixture()
            port = try freeLoopbackPort()
            loop = try EventLoop(name: "tcp-client")
            let sockets = SocketDirectory.from(environment: [
                "VERTICALS_SOCKET_DIR": suite.socketDirectory.path, "VERTICALS_TLS": "off",
                "VERTICALS_ENDPOINT_ECHO": "tcp:127.0.0.1:\(port)",
            ])
            client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(30))
            daemon = try start(extra: extra)
        }

        var environment: [String: String] { ["VERTICALS_LISTEN": "tcp:127.0.0.1:\(port)", "VERTICALS_TLS": "off"] }

        /// Starts vt-testd on the port and waits until it accepts (handshake and frame timeouts of
        /// two minutes unless `extra` says otherwise, as in HostileClientTests).
        @discardableResult
        func start(extra: [String: String] = [:]) throws -> DaemonProcess {
            let patient = ["VERTICALS_HANDSHAKE_TIMEOUT_SECONDS": "120", "VERTICALS_FRAME_TIMEOUT_SECONDS": "120"]
            let daemon = try suite.start(
                extra: environment.merging(patient) { $1 }.merging(extra) { $1 }, waitForSocket: false)
            let port = port
            #expect(
                eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "never listened on TCP \(port)")
            self.daemon = daemon
            return daemon
        }

        func raw(receiveTimeout: Duration = .seconds(5)) throws -> RawClient {
            try RawClient(host: "127.0.0.1", port: port, receiveTimeout: receiveTimeout)
        }

        deinit {
            client.close()
            loop.shutdown()
        }
    }

    @Test func daemonOnTCP_answersACall_foundThroughVERTICALS_ENDPOINT() async throws {
        let fixture = try TCPFixture()
        let output = try await fixture.client.call(echo.echo, .init(text: "over tcp"))
        #expect(output.text == "over tcp")
        #expect(access(fixture.suite.socket(), F_OK) != 0, "a TCP daemon binds no Unix socket")
    }

    @Test func callerReconnects_afterTheTCPDaemonRestarts() async throws {
        let fixture = try TCPFixture()
        #expect(try await fixture.client.call(echo.echo, .init(text: "one")).text == "one")
        fixture.daemon?.stop()
        // Until a new daemon listens, a call fails typed and retryable, never hangs.
        do {
            _ = try await fixture.client.call(echo.echo, .init(text: "nobody"), timeout: .seconds(5))
        } catch {
            #expect(error.code == .unavailable && error.retryable, "\(error)")
        }
        try fixture.start()
        #expect(try await fixture.client.call(echo.echo, .init(text: "two")).text == "two")
    }

    @Test func hostileClientsOverTCP_getProtocolErrorsOrAreClosed_andOthersAreServed() async throws {
        let fixture = try TCPFixture()
        // A truncated frame, then end of stream.
        for cut in [1, 3, 4, 20] {
            let raw = try fixture.raw()
            let frame = Message.frame(
                Envelope(kind: .request, correlationID: 1, operation: "echo.echo"), rawBody: [1, 2, 3])
            try raw.send(Array(frame.prefix(cut)))
            raw.finishSending()
            raw.expectErrorThenClosed(nil)
        }
        // A zero length, and a length over the 4 MiB limit.
        for prefix: [UInt8] in [[0, 0, 0, 0], [0x7f, 0xff, 0xff, 0xff]] {
            let raw = try fixture.raw()
            _ = raw.sendWithoutBlocking(prefix + [1, 2, 3, 4])
            raw.expectErrorThenClosed(.protocolError)
        }
        // A frame of a server's kind.
        let raw = try fixture.raw()
        try raw.send(Message.frame(Envelope(kind: .response, correlationID: 5, operation: "echo.echo"), rawBody: []))
        #expect(raw.receiveError()?.error.code == .protocolError)
        #expect(try await fixture.client.call(echo.echo, .init(text: "still serving")).text == "still serving")
    }

    @Test func silentTCPConnection_isClosedAfterTheHandshakeTimeout() async throws {
        let fixture = try TCPFixture(extra: ["VERTICALS_HANDSHAKE_TIMEOUT_SECONDS": "0.5"])
        try fixture.raw().expectErrorThenClosed(.deadlineExceeded)
    }

    @Test func internalOperation_isRefusedToAPlainTCPCaller() async throws {
        let fixture = try TCPFixture(extra: ["VERTICALS_INTERNAL_OPERATIONS": "echo"])
        do {
            _ = try await fixture.client.call(echo.echo, .init(text: "internal"))
            Issue.record("an internal operation answered a plain-TCP caller")
        } catch {
            #expect(error.code == .permissionDenied, "\(error)")
            #expect(error.message.contains("(plain TCP) may not call it"), "\(error.message)")
        }
        #expect(try fixture.raw().pingAnswered(), "the connection itself is admitted")
    }

    @Test func operatorBuiltins_thatChangeTheDaemon_areRefusedToAPlainTCPCaller() async throws {
        let fixture = try TCPFixture()
        // Built-ins are called on the vertical that serves them, by full name (as the CLI does).
        do {
            _ = try await fixture.client.callRaw(
                service: "echo", operation: Daemon.setLogLevel.fullName,
                body: Daemon.LogLevelInput(level: .debug).encodedBody())
            Issue.record("daemon.setLogLevel answered a plain-TCP caller")
        } catch {
            #expect(error.code == .permissionDenied, "\(error)")
        }
        // Reading built-ins stay open: health (the supervisor's liveness check) works over TCP.
        _ = try await fixture.client.callRaw(
            service: "echo", operation: Daemon.health.fullName, body: Empty().encodedBody())
        #expect(try await fixture.client.call(echo.echo, .init(text: "x")).text == "x")
    }

    @Test func allowList_refusesEveryPlainTCPCaller_beforeReadingIt() async throws {
        let fixture = try TCPFixture(extra: ["VERTICALS_ALLOWED_UIDS": "\(getuid())"])
        let raw = try fixture.raw()
        let refusal = try #require(raw.receiveError())
        #expect(refusal.envelope.correlationID == 0)
        #expect(refusal.error.code == .permissionDenied)
        do {
            _ = try await fixture.client.call(echo.echo, .init(text: "x"))
            Issue.record("a plain-TCP caller passed an allow-list")
        } catch {
            #expect(error.code == .permissionDenied, "\(error)")
        }
    }

    @Test(arguments: [
        // (VERTICALS_LISTEN, VERTICALS_TLS or nil, what the log must say)
        ("tcp:127.0.0.1:PORT", nil as String?, "TCP needs TLS"),
        ("tcp:127.0.0.1:PORT", "on", "TCP needs TLS"),
        ("tcp:127.0.0.1:PORT", "maybe", "VERTICALS_TLS=maybe"),
        ("tcp:0.0.0.0:PORT", "off", "only on loopback"),
        ("tcp:127.0.0.1", "off", "not an endpoint"),
    ])
    func plainTCP_isRefusedUnlessAskedFor_andOnlyOnLoopback(listen: String, tls: String?, reason: String) throws {
        let suite = try SuiteFixture()
        let port = try freeLoopbackPort()
        var extra = ["VERTICALS_LISTEN": listen.replacingOccurrences(of: "PORT", with: "\(port)")]
        extra["VERTICALS_TLS"] = tls
        let log = suite.directory.file("stderr.log")
        let daemon = try suite.start(extra: extra, waitForSocket: false, stderrPath: log)
        let status = daemon.waitForExit(timeout: .seconds(20))
        #expect(status != nil && status != 0, "the daemon served (exit \(String(describing: status)))")
        #expect(readFile(log)?.contains(reason) == true, "stderr: \(readFile(log) ?? "")")
        #expect((try? RawClient(host: "127.0.0.1", port: port)) == nil)
    }

    @Test func plainTCP_onAnyAddress_whenForced_andTheLogSaysSo() async throws {
        let suite = try SuiteFixture()
        let port = try freeLoopbackPort()
        let log = suite.directory.file("stderr.log")
        try suite.start(
            extra: ["VERTICALS_LISTEN": "tcp:0.0.0.0:\(port)", "VERTICALS_TLS": "off-insecure"], waitForSocket: false,
            stderrPath: log)
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port))?.pingAnswered() == true })
        let text = readFile(log) ?? ""
        #expect(text.components(separatedBy: "without TLS").count == 2, "said once: \(text)")
    }

    @Test func clientEndpoints_fromTheEnvironment_areCheckedAndTyped() async throws {
        let loop = try EventLoop(name: "tcp-client-rules")
        defer { loop.shutdown() }
        let sockets = SocketDirectory.from(environment: [
            "VERTICALS_SOCKET_DIR": "/tmp/none",
            "VERTICALS_ENDPOINT_ECHO": "tcp:127.0.0.1:1", // no VERTICALS_TLS: refused
            "VERTICALS_ENDPOINT_MY_SERVICE": "nonsense",
        ])
        #expect(sockets.endpoints.isEmpty)
        #expect(sockets.endpointProblems["ECHO"]?.contains("TCP needs TLS") == true)
        #expect(sockets.endpointProblems["MY_SERVICE"]?.contains("not an endpoint") == true)
        #expect(sockets.endpoint(for: "catalog") == .unix(path: "/tmp/none/catalog.sock"))
        let client = ServiceClient(loop: loop, sockets: sockets)
        defer { client.close() }
        for service in ["echo", "my-service"] {
            do {
                _ = try await client.call(TestEcho(service: service).echo, .init(text: "x"))
                Issue.record("\(service) was called")
            } catch {
                #expect(error.code == .unavailable)
                #expect(error.message.contains("VERTICALS_ENDPOINT_"), "\(error.message)")
            }
        }
        let allowed = SocketDirectory.from(environment: [
            "VERTICALS_TLS": "off", "VERTICALS_ENDPOINT_MY_SERVICE": "tcp:[::1]:7001",
        ])
        #expect(allowed.endpoint(for: "my-service") == .tcp(host: "::1", port: 7001))
        #expect(SocketDirectory.endpointKey(for: "my-service") == "MY_SERVICE")
    }
}
