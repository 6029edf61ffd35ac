import Testing
import VerticalsEventLoop
import VerticalsTesting

/// What docs/PROTOCOL.md § 1a says a certificate must be: intermediates allowed when a side's
/// file carries them, `extendedKeyUsage` checked for each side's role (and optional).
extension TLSConnectionTests {
    /// Connects presenting `issued` to the server `peer`, then one frame: its echo, or nothing
    /// when the server refused the certificate after the client's handshake (TLS 1.3).
    func echoOnce(_ endpoint: SocketEndpoint, as issued: TestCertificateAuthority.Issued, expecting peer: String)
        async throws -> Result<[[UInt8]], EventLoopError>
    {
        switch try await connect(endpoint, as: issued, expecting: peer) {
        case .failure(let error): return .failure(error)
        case .success(let connection):
            let frames = await echo(connection, [[7, 7, 7]])
            try await loop.submit { connection.value.close() }
            return .success(frames)
        }
    }

    @Test func leafSignedByAnIntermediate_isAccepted_whenItsFileCarriesTheIntermediate() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen)
        let intermediate = try ca.intermediate("intermediate-ca")
        #expect(
            try await echoOnce(endpoint, as: try intermediate.issue("orders"), expecting: "echo").get() == [[7, 7, 7]])
        #expect(seen.names.withLock { $0 } == ["orders"])

        let bare = try intermediate.issue("ledger", withChain: false)
        if case .success(let frames) = try await echoOnce(endpoint, as: bare, expecting: "echo") {
            #expect(frames.isEmpty, "a leaf sent without its intermediate was served")
        }
        #expect(eventually(timeout: .seconds(10)) { !seen.errors.withLock { $0 }.isEmpty })
        #expect(
            seen.names.withLock { $0 } == ["orders"], "a leaf sent without its intermediate was handed to the server")
        try await loop.submit { listener.value.close() }
    }

    @Test func serverCertificateForClientsOnly_isRefusedByTheClient() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let clientOnly = try ca.issue("echo", file: "echo-client-only", extendedKeyUsage: "clientAuth")
        let (listener, endpoint) = try await startServer(issued: clientOnly, seen: seen)
        let result = try await echoOnce(endpoint, as: try ca.issue("orders"), expecting: "echo")
        guard case .failure(let error) = result else {
            Issue.record("a server certificate without serverAuth was accepted")
            return
        }
        #expect(error.kind == .tls, "\(error)")
        try await loop.submit { listener.value.close() }
    }

    @Test func clientCertificateForServersOnly_isRefused_andOneWithNoExtendedKeyUsageAccepted() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen)
        let unrestricted = try ca.issue("ledger", extendedKeyUsage: "")
        #expect(try await echoOnce(endpoint, as: unrestricted, expecting: "echo").get() == [[7, 7, 7]])

        let serverOnly = try ca.issue("orders", extendedKeyUsage: "serverAuth")
        // TLS 1.3: the client's handshake completes; the server's verdict comes as an alert.
        if case .success(let frames) = try await echoOnce(endpoint, as: serverOnly, expecting: "echo") {
            #expect(frames.isEmpty, "a client certificate without clientAuth was served")
        }
        #expect(eventually(timeout: .seconds(10)) { !seen.errors.withLock { $0 }.isEmpty })
        #expect(seen.errors.withLock { $0 }.first?.kind == .tls)
        #expect(seen.names.withLock { $0 } == ["ledger"])
        try await loop.submit { listener.value.close() }
    }
}
