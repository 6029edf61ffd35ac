import CLibUV

/// A connect in flight: its `uv_connect_t`, retained into the request's `data` until the callback.
final class ConnectRequest {
    let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
    let connection: Connection
    let completion: (Result<Connection, EventLoopError>) -> Void
    /// A host name's further addresses, tried in turn on a fresh handle when this connect fails.
    let fallbacks: [SocketAddress]

    init(
        connection: Connection, fallbacks: [SocketAddress] = [],
        completion: @escaping (Result<Connection, EventLoopError>) -> Void
    ) {
        self.connection = connection
        self.fallbacks = fallbacks
        self.completion = completion
    }

    deinit {
        request.deallocate()
    }
}

extension Connection {
    /// Connects to the Unix socket at `path`. Call on the loop thread; `completion` runs later
    /// on the loop thread, never inside this call.
    ///
    /// Fails with ``EventLoopError/pathTooLong(_:limit:)`` (checked first: libuv 1.44 would
    /// silently truncate), ``EventLoopError/notFound`` (no socket there),
    /// ``EventLoopError/connectionRefused`` (a stale socket), or ``EventLoopError/closed``
    /// (the loop shuts down).
    ///
    /// ```swift
    /// Connection.connect(path: "/run/verticals/identity.sock", on: loop) { result in
    ///     guard case .success(let connection) = result else { return }
    ///     connection.onFrame = { … }
    ///     connection.startReading()
    /// }
    /// ```
    public static func connect(
        path: String, on loop: EventLoop, options: ConnectionOptions = .init(),
        _ completion: @escaping (Result<Connection, EventLoopError>) -> Void
    ) {
        loop.preconditionInEventLoop()
        if let error = UnixSocketPath.validate(path, operation: "connect") {
            loop.deferOnLoop { completion(.failure(error)) }
            return
        }
        let connection = Connection(loop: loop, options: options, state: .connecting)
        let pending = ConnectRequest(connection: connection, completion: completion)
        uv_req_set_data(pending.request.asRequest, Unmanaged.passRetained(pending).toOpaque())
        uv_pipe_connect(pending.request, StreamHandle.pipe(connection.stream), path, Connection.onConnected)
        if loop.isShuttingDown {
            connection.beginClose(error: nil)  // cancels the connect: completion gets .closed
        }
    }

    static let onConnected: uv_connect_cb = { request, status in
        let pending = Unmanaged<ConnectRequest>.fromOpaque(uv_req_get_data(request!.asRequest)!).takeRetainedValue()
        let connection = pending.connection
        if status == 0, connection.state == .connecting {
            connection.state = .open
            if connection.transport == .tcp { StreamHandle.tuneConnected(connection.stream) }
            pending.completion(.success(connection))
        } else if status != 0, connection.state == .connecting, let next = pending.fallbacks.first,
            !connection.loop.isShuttingDown
        {
            // A host name with another address (IPv6 and IPv4, say): a failed handle cannot connect
            // again, so the next address gets a new one.
            connection.beginClose(error: nil)
            let retry = Connection(loop: connection.loop, options: connection.options, state: .connecting, transport: .tcp)
            retry.connectTCP(to: next, fallbacks: Array(pending.fallbacks.dropFirst()), pending.completion)
        } else {
            connection.beginClose(error: nil)  // never handed out: nobody to tell
            pending.completion(.failure(status == 0 ? .closed : .uv("connect", status)))
        }
    }
}
