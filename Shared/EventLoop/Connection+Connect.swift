import CLibUV

/// One libuv request of a connect in flight (`uv_connect_t`, or `uv_getaddrinfo_t` while a host
/// name resolves), retained into the request's `data` by ``retainIntoRequest()`` until its
/// callback takes it back with ``take(_:)``.
final class ConnectStep<Request, Carried> {
    let request = UnsafeMutablePointer<Request>.allocate(capacity: 1)
    let connection: Connection
    /// What the callback needs besides the connection: a host name's further addresses (tried in
    /// turn on a fresh handle when this connect fails), or the host name being resolved.
    let carried: Carried
    let completion: (Result<Connection, EventLoopError>) -> Void

    init(
        connection: Connection, carrying carried: Carried,
        completion: @escaping (Result<Connection, EventLoopError>) -> Void
    ) {
        self.connection = connection
        self.carried = carried
        self.completion = completion
    }

    deinit {
        request.deallocate()
    }

    /// Retains this step into its request's `data`, for the callback (or ``take(_:)`` when libuv refuses the request).
    func retainIntoRequest() {
        uv_req_set_data(request.asRequest, Unmanaged.passRetained(self).toOpaque())
    }

    /// The step ``retainIntoRequest()`` retained into `request`, released from it.
    static func take(_ request: UnsafeMutablePointer<Request>) -> ConnectStep {
        Unmanaged<ConnectStep>.fromOpaque(uv_req_get_data(request.asRequest)!).takeRetainedValue()
    }
}

/// A connect in flight, carrying a host name's further addresses.
typealias ConnectRequest = ConnectStep<uv_connect_t, [SocketAddress]>

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
        let pending = ConnectRequest(connection: connection, carrying: [], completion: completion)
        pending.retainIntoRequest()
        uv_pipe_connect(pending.request, StreamHandle.pipe(connection.stream), path, Connection.onConnected)
        if loop.isShuttingDown {
            connection.beginClose(error: nil) // cancels the connect: completion gets .closed
        }
    }

    static let onConnected: uv_connect_cb = { request, status in
        let pending = ConnectRequest.take(request!)
        let connection = pending.connection
        if status == 0, connection.machine.connected() {
            if connection.transport == .tcp { StreamHandle.tuneConnected(connection.stream) }
            pending.completion(.success(connection))
        } else if status != 0, connection.machine.state == .connecting, let next = pending.carried.first,
            !connection.loop.isShuttingDown
        {
            // A host name with another address (IPv6 and IPv4, say): a failed handle cannot connect
            // again, so the next address gets a new one.
            connection.beginClose(error: nil)
            let retry = Connection(
                loop: connection.loop, options: connection.options, state: .connecting, transport: .tcp)
            retry.connectTCP(to: next, fallbacks: Array(pending.carried.dropFirst()), pending.completion)
        } else {
            connection.beginClose(error: nil) // never handed out: nobody to tell
            pending.completion(.failure(status == 0 ? .closed : .uv("connect", status)))
        }
    }
}
