import Glibc
import Testing
import VerticalsEventLoop
import VerticalsWire

/// The Unix-socket machinery over TCP: the same `Connection` and `StreamListener`, with a
/// `uv_tcp_t` under them.
@Suite("Connection over TCP loopback", .timeLimit(.minutes(3)))
struct TCPConnectionTests {
    // The limit guards against a hang, and is no measure: in the full parallel run an async test
    // waits its turn for one of Swift Testing's worker threads (as many as cores), which process
    // tests hold for seconds at a time, and a whole suite of these was seen waiting past a minute.

    /// An echo server on `endpoint` (port 0: the kernel picks); returns it and where it listens.
    static func startTCPEcho(_ endpoint: SocketEndpoint, on loop: EventLoop, options: ConnectionOptions = .init())
        async throws -> (listener: LoopBound<StreamListener>, bound: SocketEndpoint)
    {
        let started = try await onLoop(loop) { () -> (StreamListener, SocketEndpoint?) in
            let listener = try StreamListener.bind(endpoint: endpoint, on: loop, options: options)
            listener.start { connection in
                connection.onFrame = { [unowned connection] payload in connection.write(frame(payload)) }
                connection.startReading()
            }
            return (listener, listener.localEndpoint)
        }
        let bound = try #require(started.value.1)
        return (LoopBound(started.value.0), bound)
    }

    static func connect(_ endpoint: SocketEndpoint, on loop: EventLoop) async throws -> Result<
        LoopBound<Connection>, EventLoopError
    > {
        try await connectOutcome("connect \(endpoint)", on: loop) { Connection.connect(to: endpoint, on: loop, $0) }
    }

    /// Sends `count` frames split across writes and waits for every echo, in order.
    static func echoRoundTrip(_ endpoint: SocketEndpoint, on loop: EventLoop, count: Int = 20) async throws {
        let connection = try await connect(endpoint, on: loop).get()
        let payloads = (0..<count).map { index in
            Array("frame \(index) ".utf8) + [UInt8](repeating: UInt8(index), count: index * 1500)
        }
        let done = Expectation<[[UInt8]]>("every echo")
        try await loop.submit {
            let connection = connection.value
            var received: [[UInt8]] = []
            connection.onFrame = { payload in
                received.append(payload)
                if received.count == count { done.fulfill(received) }
            }
            connection.startReading()
            for payload in payloads {
                let bytes = frame(payload)
                let cut = bytes.count / 3
                connection.write(Array(bytes[..<cut]))
                connection.write(Array(bytes[cut...]))
            }
        }
        #expect(try await done.value() == payloads)
        try await loop.submit {
            #expect(connection.value.transport == .tcp)
            #expect(connection.value.peerCredentials == nil, "TCP has no SO_PEERCRED")
            #expect(connection.value.peerEndpoint?.isLoopback == true)
            connection.value.close()
        }
    }

    @Test func echo_overIPv4Loopback_answersEveryFrameInOrder() async throws {
        try await withEventLoop { loop in
            let server = try await Self.startTCPEcho(.tcp(host: "127.0.0.1", port: 0), on: loop)
            guard case .tcp(let host, let port) = server.bound else { Issue.record("not TCP: \(server.bound)"); return }
            #expect(host == "127.0.0.1")
            #expect(port != 0)
            try await Self.echoRoundTrip(server.bound, on: loop)
            try await loop.submit { server.listener.value.close() }
        }
    }

    @Test func echo_overIPv6Loopback() async throws {
        try await withEventLoop { loop in
            let server: (listener: LoopBound<StreamListener>, bound: SocketEndpoint)
            do {
                server = try await Self.startTCPEcho(.tcp(host: "::1", port: 0), on: loop)
            } catch {
                print("skipped: no IPv6 loopback here (\(error))")
                return
            }
            #expect(server.bound.description.hasPrefix("tcp:[::1]:"))
            try await Self.echoRoundTrip(server.bound, on: loop, count: 3)
            try await loop.submit { server.listener.value.close() }
        }
    }

    @Test func connect_toAHostName_resolvesOffTheLoopAndConnects() async throws {
        try await withEventLoop { loop in
            let server = try await Self.startTCPEcho(.tcp(host: "127.0.0.1", port: 0), on: loop)
            guard case .tcp(_, let port) = server.bound else { return }
            // localhost may resolve to ::1 first where IPv6 exists; serve both to be sure.
            let v6 = try? await Self.startTCPEcho(.tcp(host: "::1", port: port), on: loop)
            try await Self.echoRoundTrip(.tcp(host: "localhost", port: port), on: loop, count: 2)
            try await loop.submit {
                server.listener.value.close()
                v6?.listener.value.close()
            }
        }
    }

    @Test func adopt_ofAnInheritedTCPSocket_detectsTCPAndServes() async throws {
        try await withEventLoop { loop in
            let fd = try TCPSocket.listen(host: "127.0.0.1", port: 0)
            #expect(TCPSocket.isTCP(fd))
            let bound = try #require(TCPSocket.localEndpoint(of: fd))
            let listener = try await onLoop(loop) {
                let listener = try StreamListener.adopt(fd: fd, on: loop)
                listener.start { connection in
                    connection.onFrame = { [unowned connection] payload in connection.write(frame(payload)) }
                    connection.startReading()
                }
                return listener
            }
            try await loop.submit {
                #expect(listener.value.transport == .tcp)
                #expect(listener.value.localEndpoint == bound)
            }
            try await Self.echoRoundTrip(bound, on: loop, count: 2)
            try await loop.submit { listener.value.close() }
        }
    }

    @Test func framingError_overTCP_isReportedAsOverUnix() async throws {
        try await withEventLoop { loop in
            let errors = Expectation<FrameError>("frame error")
            let listener = try await onLoop(loop) {
                let listener = try StreamListener.bind(
                    endpoint: .tcp(host: "127.0.0.1", port: 0), on: loop, options: ConnectionOptions(maxFrameSize: 1024)
                )
                listener.start { connection in
                    connection.onFrame = { _ in }
                    connection.onFrameError = { [unowned connection] error in
                        errors.fulfill(error)
                        connection.closeAfterFlush()
                    }
                    connection.startReading()
                }
                return listener
            }
            let bound = try await loop.submit { listener.value.localEndpoint! }
            let client = try await Self.connect(bound, on: loop).get()
            try await loop.submit { client.value.write([0, 0, 0x10, 0] + [UInt8](repeating: 1, count: 16)) } // 4096 > 1024
            _ = try await errors.value()
            try await loop.submit {
                client.value.close()
                listener.value.close()
            }
        }
    }

    @Test func connect_toAClosedPort_failsWithConnectionRefused() async throws {
        try await withEventLoop { loop in
            let result = try await Self.connect(.tcp(host: "127.0.0.1", port: try refusingLoopbackPort()), on: loop)
            #expect(throws: EventLoopError.connectionRefused) { try result.get() }
        }
    }

    @Test func connect_toAnUnknownHost_failsWithATypedError() async throws {
        try await withEventLoop { loop in
            let result = try await Self.connect(.tcp(host: "no-such-host.invalid", port: 80), on: loop)
            #expect(throws: EventLoopError.self) { try result.get() }
            if case .failure(let error) = result { #expect(error.description.contains("getaddrinfo")) }
        }
    }

    @Test func bind_onAPortInUse_failsWithAddressInUse() async throws {
        try await withEventLoop { loop in
            let server = try await Self.startTCPEcho(.tcp(host: "127.0.0.1", port: 0), on: loop)
            let outcome = try await loop.submit { () -> EventLoopError? in
                do {
                    _ = try StreamListener.bind(endpoint: server.bound, on: loop)
                    return nil
                } catch { return error as? EventLoopError }
            }
            #expect(outcome?.kind == .addressInUse)
            #expect(outcome?.description.contains("choose another port") == true, "\(String(describing: outcome))")
            try await loop.submit { server.listener.value.close() }
        }
    }
}
