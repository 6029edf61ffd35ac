import Glibc
import Synchronization
import Testing
import VerticalsEventLoop
import VerticalsTesting
import VerticalsWire

/// Mutual TLS 1.3 on the event loop's streams (OpenSSL over memory BIOs): both sides verified
/// against the suite CA, each learning the other's vertical name; a peer with no certificate,
/// one another CA signed, the wrong name, or a handshake that never finishes is refused. The
/// certificate rules of docs/PROTOCOL.md § 1a (`+CertificateRules`) and the ClientHello a client
/// sends (`+ClientHello`) are in extensions.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct TLSConnectionTests {
    /// What a TLS echo server saw: accepted peers' names and accept errors.
    final class Seen: Sendable {
        let names = Mutex<[String?]>([])
        let errors = Mutex<[EventLoopError]>([])
    }

    /// Carries loop-confined values across the test's awaits; only touched on their loop.
    struct Bound<Value>: @unchecked Sendable {
        let value: Value
    }

    let directory = TemporaryDirectory()
    let ca: TestCertificateAuthority
    let loop: EventLoop

    init() throws {
        ca = try TestCertificateAuthority(in: directory)
        loop = try EventLoop(name: "tls-test")
    }

    static func files(_ issued: TestCertificateAuthority.Issued) -> TLSFiles {
        TLSFiles(certificate: issued.certificate, key: issued.key, authority: issued.authority)
    }

    /// A TLS echo server as vertical `name` on 127.0.0.1 (a free port), presenting `issued` when
    /// given (else a certificate the CA issues for `name`); returns where it listens.
    func startServer(
        _ name: String = "echo", issued: TestCertificateAuthority.Issued? = nil, seen: Seen,
        handshakeTimeout: Duration = .seconds(10)
    ) async throws -> (Bound<StreamListener>, SocketEndpoint) {
        let context = try TLSContext(files: Self.files(try issued ?? ca.issue(name)), role: .server)
        return try await loop.submit { [loop] in
            let listener = try StreamListener.bind(endpoint: .tcp(host: "127.0.0.1", port: 0), on: loop)
            listener.useTLS(context, handshakeTimeout: handshakeTimeout)
            listener.onAcceptError = { error in seen.errors.withLock { $0.append(error) } }
            listener.start { connection in
                seen.names.withLock { $0.append(connection.peerName) }
                connection.onFrame = { [unowned connection] payload in connection.write(FrameEncoder.frame(payload)) }
                connection.startReading()
            }
            return (Bound(value: listener), listener.localEndpoint!)
        }
    }

    func connect(_ endpoint: SocketEndpoint, as issued: TestCertificateAuthority.Issued, expecting peer: String?)
        async throws
        -> Result<Bound<Connection>, EventLoopError>
    {
        let context = try TLSContext(files: Self.files(issued), role: .client)
        return await withCheckedContinuation { continuation in
            loop.execute { [loop] in
                Connection.connect(to: endpoint, on: loop, tls: context, peerName: peer) { result in
                    continuation.resume(returning: result.map { Bound(value: $0) })
                }
            }
        }
    }

    /// Sends `payloads` as frames and returns the echoes (or what came before the connection closed).
    func echo(_ connection: Bound<Connection>, _ payloads: [[UInt8]]) async -> [[UInt8]] {
        await withCheckedContinuation { continuation in
            loop.execute {
                let connection = connection.value
                var received: [[UInt8]] = []
                var finished = false
                func finish() {
                    guard !finished else { return }
                    finished = true
                    continuation.resume(returning: received)
                }
                connection.onFrame = { payload in
                    received.append(payload)
                    if received.count == payloads.count { finish() }
                }
                connection.onClose = { _ in finish() }
                connection.startReading()
                for payload in payloads { connection.write(FrameEncoder.frame(payload)) }
            }
        }
    }

    @Test func mutualTLS_echoesFrames_andEachSideLearnsTheOthersName() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen)
        let connection = try await connect(endpoint, as: try ca.issue("orders"), expecting: "echo").get()
        let payloads = (0..<20).map { index in [UInt8](repeating: UInt8(index), count: index * 3000 + 1) }
        #expect(await echo(connection, payloads) == payloads)
        try await loop.submit {
            #expect(connection.value.peerName == "echo")
            #expect(connection.value.isSecure)
            connection.value.close()
            listener.value.close()
        }
        #expect(seen.names.withLock { $0 } == ["orders"])
        #expect(seen.errors.withLock { $0 }.isEmpty)
    }

    /// Long frames sealed and opened a record at a time: they come back whole, and neither side
    /// keeps room for them afterwards (a memory BIO never gives back what it grew to).
    @Test func longFramesOverTLS_echoWhole_andLeaveNoRoomForThemInTheSessions() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen)
        let connection = try await connect(endpoint, as: try ca.issue("orders"), expecting: "echo").get()
        let payloads = [1 << 20, 16 << 10, (16 << 10) + 1, 200_000, 3].enumerated().map { index, count in
            (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
        }
        #expect(await echo(connection, payloads) == payloads)
        let room = try await loop.submit { connection.value.tlsBufferRoom }
        #expect((room ?? .max) < 96 << 10, "the client's TLS session kept \(room ?? -1) bytes of room")
        try await loop.submit {
            connection.value.close()
            listener.value.close()
        }
        #expect(seen.errors.withLock { $0 }.isEmpty)
    }

    /// A long frame read over TLS (decrypted into the decoder, not read into its own array) has
    /// the server's loop hand back what it frees once long frames stop, as on a plain stream. The
    /// server answers with the length alone, so only its read is long, and the client is on a
    /// loop of its own.
    @Test func longFrameReadOverTLS_armsTheServerLoopsMemoryRelease() async throws {
        defer { loop.shutdown() }
        let clientLoop = try EventLoop(name: "tls-client")
        defer { clientLoop.shutdown() }
        let serverContext = try TLSContext(files: Self.files(try ca.issue("echo")), role: .server)
        let listener = try await loop.submit { [loop] in
            let listener = try StreamListener.bind(endpoint: .tcp(host: "127.0.0.1", port: 0), on: loop)
            listener.useTLS(serverContext, handshakeTimeout: .seconds(10))
            listener.start { connection in
                connection.onFrame = { [unowned connection] payload in
                    connection.write(FrameEncoder.frame(Array("\(payload.count)".utf8)))
                }
                connection.startReading()
            }
            return Bound(value: listener)
        }
        let endpoint = try await loop.submit { listener.value.localEndpoint! }
        let clientContext = try TLSContext(files: Self.files(try ca.issue("orders")), role: .client)
        let long = [UInt8](repeating: 9, count: 1 << 20)
        let answer: String = await withCheckedContinuation { continuation in
            clientLoop.execute { [clientLoop] in
                Connection.connect(to: endpoint, on: clientLoop, tls: clientContext, peerName: "echo") { result in
                    guard case .success(let connection) = result else {
                        continuation.resume(returning: "no connection: \(result)")
                        return
                    }
                    connection.onFrame = { [unowned connection] payload in
                        continuation.resume(returning: String(decoding: payload, as: UTF8.self))
                        connection.onFrame = nil
                        connection.close()
                    }
                    connection.startReading()
                    connection.write(FrameEncoder.frame(long))
                }
            }
        }
        #expect(answer == "\(long.count)")
        let released = try await loop.submit { [loop] in loop.isMemoryReleaseArmed || loop.memoryReleaseCount > 0 }
        #expect(released, "a long frame read over TLS left no release armed")
        try await loop.submit { listener.value.close() }
    }

    @Test func serverNamingAnotherVertical_isRefusedByTheClient() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen)
        let result = try await connect(endpoint, as: try ca.issue("orders"), expecting: "ledger")
        guard case .failure(let error) = result else {
            Issue.record("connected to echo expecting ledger")
            return
        }
        #expect(error.kind == .tls)
        #expect(error.description.contains("verticals://echo, not verticals://ledger"), "\(error)")
        try await loop.submit { listener.value.close() }
    }

    @Test func clientOfAnotherCA_isRefused_beforeAnyFrameIsServed() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen)
        let stranger = try TestCertificateAuthority(in: directory, name: "other-ca")
        let issued = try stranger.issue("orders")
        // It trusts our CA (so it accepts the server), but its own certificate is the other CA's.
        let mixed = TestCertificateAuthority.Issued(
            certificate: issued.certificate, key: issued.key, authority: ca.certificate)
        if case .success(let connection) = try await connect(endpoint, as: mixed, expecting: "echo") {
            // TLS 1.3: the client finishes first; the server's verdict arrives as an alert.
            #expect(await echo(connection, [[1, 2, 3]]).isEmpty, "a frame was served to a stranger")
        }
        #expect(eventually(timeout: .seconds(10)) { !seen.errors.withLock { $0 }.isEmpty })
        #expect(seen.errors.withLock { $0 }.first?.kind == .tls)
        #expect(seen.names.withLock { $0 }.isEmpty, "the stranger was handed to the server")
        try await loop.submit { listener.value.close() }
    }

    @Test func clientWithNoCertificate_failsTheHandshake() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen)
        guard case .tcp(let host, let port) = endpoint else { return }
        // openssl's own client, with the CA but no certificate of its own.
        _ = try runCommand(
            "/usr/bin/openssl", ["s_client", "-connect", "\(host):\(port)", "-CAfile", ca.certificate, "-tls1_3"],
            in: directory, standardInput: "", timeout: .seconds(20))
        #expect(eventually(timeout: .seconds(10)) { !seen.errors.withLock { $0 }.isEmpty })
        #expect(seen.errors.withLock { $0 }.first?.kind == .tls)
        #expect(seen.names.withLock { $0 }.isEmpty)
        try await loop.submit { listener.value.close() }
    }

    @Test func handshakeThatNeverFinishes_isLetGoAfterTheTimeout() async throws {
        defer { loop.shutdown() }
        let seen = Seen()
        let (listener, endpoint) = try await startServer("echo", seen: seen, handshakeTimeout: .milliseconds(300))
        guard case .tcp(let host, let port) = endpoint else { return }
        let silent = try RawClient(host: host, port: port, receiveTimeout: .seconds(5))
        guard case .closed = silent.receive() else {
            Issue.record("a silent client kept its connection past the handshake timeout")
            return
        }
        #expect(seen.errors.withLock { $0 }.first?.description.contains("did not finish") == true)
        // Plain frames are not TLS either.
        let plain = try RawClient(host: host, port: port, receiveTimeout: .seconds(5))
        _ = plain.sendWithoutBlocking(FrameEncoder.frame([1, 2, 3]))
        if case .message = plain.receive() { Issue.record("a plain client got an answer") }
        #expect(seen.names.withLock { $0 }.isEmpty)
        try await loop.submit { listener.value.close() }
    }
}
