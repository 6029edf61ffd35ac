import CLibUV
import Glibc

/// A host name being resolved (`uv_getaddrinfo`, on libuv's thread pool) before a TCP connect,
/// carrying the name.
typealias ResolveRequest = ConnectStep<uv_getaddrinfo_t, String>

extension Connection {
    /// Connects to `endpoint`: a Unix socket as ``connect(path:on:options:_:)`` does, or a TCP
    /// address. An IP literal connects at once; a host name is first resolved off the loop
    /// (`uv_getaddrinfo`) and its addresses are tried in order until one connects. A connected TCP stream has
    /// `TCP_NODELAY` and keep-alive on. Call on the loop thread; `completion` runs later on the
    /// loop thread, never inside this call.
    ///
    /// Fails with ``EventLoopError/connectionRefused`` (nothing listens on the port),
    /// ``EventLoopError/closed`` (the loop shuts down) or a `EventLoopError/Kind/system` error
    /// (an unknown host: `getaddrinfo`; unreachable networks).
    public static func connect(
        to endpoint: SocketEndpoint, on loop: EventLoop, options: ConnectionOptions = .init(),
        _ completion: @escaping (Result<Connection, EventLoopError>) -> Void
    ) {
        loop.preconditionInEventLoop()
        switch endpoint {
        case .unix(let path):
            connect(path: path, on: loop, options: options, completion)
        case .tcp(let host, let port):
            let connection = Connection(loop: loop, options: options, state: .connecting, transport: .tcp)
            if let address = SocketAddress.numeric(host: host, port: port) {
                connection.connectTCP(to: address, completion)
                return
            }
            let pending = ResolveRequest(connection: connection, carrying: host, completion: completion)
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            pending.retainIntoRequest()
            let status = uv_getaddrinfo(loop.loop, pending.request, Connection.onResolved, host, String(port), &hints)
            if status == 0 {
                connection.pendingResolve = pending.request
                if loop.isShuttingDown { connection.beginClose(error: nil) }
            } else {
                _ = ResolveRequest.take(pending.request)
                connection.beginClose(error: nil)
                loop.deferOnLoop { completion(.failure(.system(operation: "getaddrinfo \(host)", code: status))) }
            }
        }
    }

    /// Connects to `endpoint` as ``connect(to:on:options:_:)`` does, then runs a mutual-TLS
    /// handshake from `tls` (a client-role context): `completion` gets the connection only once
    /// the server presented a certificate the suite CA signed that names `peerName`
    /// (`verticals://NAME`; any name when nil), within `handshakeTimeout`.
    public static func connect(
        to endpoint: SocketEndpoint, on loop: EventLoop, options: ConnectionOptions = .init(), tls: TLSContext,
        peerName: String?, handshakeTimeout: Duration = .seconds(10),
        _ completion: @escaping (Result<Connection, EventLoopError>) -> Void
    ) {
        precondition(tls.role == .client, "a connect needs a client-role TLS context")
        connect(to: endpoint, on: loop, options: options) { result in
            guard case .success(let connection) = result else {
                completion(result)
                return
            }
            connection.beginTLS(tls, expectedPeer: peerName, timeout: handshakeTimeout) { error in
                completion(error.map { .failure($0) } ?? .success(connection))
            }
        }
    }

    /// The TCP peer's address (`getpeername`), for logs; nil for a Unix socket or once closed.
    public var peerEndpoint: SocketEndpoint? {
        loop.preconditionInEventLoop()
        guard transport == .tcp, machine.isConnected else { return nil }
        // libuv takes the length as an `int`, the size of a `socklen_t`.
        let peer = SocketAddress(writtenBy: { address, length in
            length.withMemoryRebound(to: Int32.self, capacity: 1) {
                uv_tcp_getpeername(StreamHandle.tcp(stream), address, $0)
            }
        })
        return peer?.endpoint
    }

    func connectTCP(
        to address: SocketAddress, fallbacks: [SocketAddress] = [],
        _ completion: @escaping (Result<Connection, EventLoopError>) -> Void
    ) {
        let pending = ConnectRequest(connection: self, carrying: fallbacks, completion: completion)
        pending.retainIntoRequest()
        let status = address.withSockaddr { sockaddr, _ in
            uv_tcp_connect(pending.request, StreamHandle.tcp(stream), sockaddr, Connection.onConnected)
        }
        if status != 0 {
            // libuv did not take the request: no callback will come.
            _ = ConnectRequest.take(pending.request)
            beginClose(error: nil)
            loop.deferOnLoop { completion(.failure(.uv("connect", status))) }
            return
        }
        if loop.isShuttingDown {
            beginClose(error: nil) // cancels the connect: completion gets .closed
        }
    }

    static let onResolved: uv_getaddrinfo_cb = { request, status, results in
        let pending = ResolveRequest.take(request!)
        defer { if let results { uv_freeaddrinfo(results) } }
        let connection = pending.connection
        connection.pendingResolve = nil
        guard connection.machine.state == .connecting else {
            pending.completion(.failure(.closed)) // the loop shut down meanwhile
            return
        }
        let addresses = results.map(SocketAddress.list) ?? []
        guard status == 0, let address = addresses.first else {
            connection.beginClose(error: nil)
            pending.completion(
                .failure(
                    .system(
                        operation: "getaddrinfo \(pending.carried)", code: status == 0 ? UV_EAI_NONAME.rawValue : status
                    )))
            return
        }
        connection.connectTCP(to: address, fallbacks: Array(addresses.dropFirst()), pending.completion)
    }
}
