import CLibUV
import Glibc
import VerticalsWire

/// The name this listener had when it only served Unix sockets; kept so code written against it still builds.
public typealias UnixListener = StreamListener

/// A listening socket, Unix or TCP, that hands each accepted peer to a handler as a
/// ``Connection``; loop-confined.
///
/// ```swift
/// let listener = try StreamListener.bind(path: "/run/verticals/identity.sock", on: loop, mode: 0o660)
/// let network = try StreamListener.bind(endpoint: .tcp(host: "127.0.0.1", port: 7001), on: loop)
/// listener.start { connection in … connection.startReading() }
/// ```
///
/// The socket listens from `bind`/`adopt` on; peers that arrive before ``start(_:)`` wait in
/// the backlog. The handle keeps the listener alive until ``close()`` or loop shutdown.
public final class StreamListener: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. Every public method and property, except the immutable
    // `loop`, `path`, `options` and `transport`, starts with `loop.preconditionInEventLoop()`, and libuv runs
    // every callback on the loop thread; so every `var` is only touched on that thread.

    /// The loop this listener lives on.
    public let loop: EventLoop
    /// The path this listener bound, or nil for an adopted socket.
    public let path: String?
    /// The options every accepted ``Connection`` gets.
    public let options: ConnectionOptions
    /// Unix socket or TCP; every accepted ``Connection`` has the same.
    public let transport: SocketEndpoint.Transport

    let stream: UnsafeMutablePointer<uv_stream_t> // a uv_pipe_t or uv_tcp_t (StreamHandle); freed in the close callback
    var tlsContext: TLSContext?
    var tlsHandshakeTimeout: Duration = .seconds(10)
    var connectionHandler: ((Connection) -> Void)?
    /// Picks the loop each accepted peer is served on (``start(across:_:)``); nil: this loop.
    var loopPicker: (() -> EventLoop)?
    /// The handler again, for peers handed to another loop (it runs there).
    var handOffHandler: (@Sendable (Connection) -> Void)?
    var handOffErrorHandler: (@Sendable (EventLoop, EventLoopError) -> Void)?
    var acceptErrorHandler: ((EventLoopError) -> Void)?
    /// Counts and bounds the peers whose TLS handshake is under way (nil: unbounded).
    var startupGate: StartupGate?
    /// Accepts that failed for want of a descriptor (`EMFILE`, `ENFILE`), and when one was last
    /// written to standard error (with no ``onAcceptError`` to tell).
    var shortages = (count: 0, lastSaid: ContinuousClock.Instant?.none, unsaid: 0)
    var hasWaitingPeer = false
    var isClosing = false

    private init(
        loop: EventLoop, path: String?, options: ConnectionOptions, transport: SocketEndpoint.Transport = .unix
    ) {
        self.loop = loop
        self.path = path
        self.options = options
        self.transport = transport
        self.stream = StreamHandle.make(transport, on: loop)
        HandleData.retain(self, into: stream.asHandle)
    }

    /// Binds and listens on `endpoint`: a Unix socket as ``bind(path:on:backlog:mode:options:)``
    /// does (`mode` applies to it), or a TCP address (`SO_REUSEADDR`; port 0 lets the kernel
    /// choose, see ``localEndpoint``). A TCP host name is resolved with the blocking
    /// `getaddrinfo` (start-up only); to keep even that off the loop, bind with
    /// ``TCPSocket/listen(host:port:backlog:)`` first and ``adopt(fd:on:backlog:options:)`` the fd.
    public static func bind(
        endpoint: SocketEndpoint, on loop: EventLoop, backlog: Int32 = 511, mode: UInt32? = nil,
        options: ConnectionOptions = .init()
    ) throws(EventLoopError) -> StreamListener {
        switch endpoint {
        case .unix(let path):
            return try bind(path: path, on: loop, backlog: backlog, mode: mode, options: options)
        case .tcp(let host, let port):
            loop.preconditionInEventLoop()
            if loop.isShuttingDown { throw .closed }
            let fd = try TCPSocket.listen(host: host, port: port, backlog: backlog)
            do {
                return try adopt(fd: fd, on: loop, backlog: backlog, options: options)
            } catch {
                Glibc.close(fd)
                throw error
            }
        }
    }

    /// Where this listener accepts: `unix:PATH` for a bound path, `tcp:HOST:PORT` for a TCP
    /// socket (the port the kernel chose, for port 0), nil for an inherited Unix socket or once closed.
    public var localEndpoint: SocketEndpoint? {
        loop.preconditionInEventLoop()
        guard !isClosing else { return nil }
        if let path { return .unix(path: path) }
        var fd: uv_os_fd_t = -1
        guard transport == .tcp, uv_fileno(stream.asHandle, &fd) == 0 else { return nil }
        return TCPSocket.localEndpoint(of: fd)
    }

    /// Binds and listens on `path`. Call on the loop thread.
    ///
    /// Checks the path length first (no file is created for a path over 107 bytes). If a file
    /// is already there: a socket that answers, or any non-socket, is ``EventLoopError/addressInUse(_:)``;
    /// a stale socket (connect refused) is replaced. With `mode`, the socket file is `chmod`ed
    /// before listening. The socket file is removed again by ``close()``.
    public static func bind(
        path: String, on loop: EventLoop, backlog: Int32 = 511, mode: UInt32? = nil,
        options: ConnectionOptions = .init()
    ) throws(EventLoopError) -> StreamListener {
        loop.preconditionInEventLoop()
        if let error = UnixSocketPath.validate(path, operation: "bind") { throw error }
        if loop.isShuttingDown { throw .closed }
        try UnixSocketPath.clearStale(path)

        let listener = StreamListener(loop: loop, path: path, options: options)
        var status = uv_pipe_bind(StreamHandle.pipe(listener.stream), path)
        guard status == 0 else {
            listener.close()
            throw UnixSocketPath.bindError(status, path: path)
        }
        if let mode, chmod(path, mode_t(mode)) != 0 {
            let code = -errno
            listener.close() // libuv removes the file it bound
            throw .system(operation: "chmod", code: code)
        }
        status = uv_listen(listener.stream, backlog, StreamListener.onPeer)
        guard status == 0 else {
            listener.close()
            throw .uv("listen", status, path: path)
        }
        return listener
    }

    /// Serves an inherited listening socket (socket activation: `LISTEN_FDS`, or the supervisor's
    /// hand-off), Unix or TCP: `getsockname` tells which. Call on the loop thread. On success the
    /// listener owns `fd`; when `listen(2)` fails on it (not a socket, not bound) the caller
    /// still does. ``close()`` never removes the socket's file.
    public static func adopt(
        fd: Int32, on loop: EventLoop, backlog: Int32 = 511, options: ConnectionOptions = .init()
    ) throws(EventLoopError) -> StreamListener {
        loop.preconditionInEventLoop()
        if loop.isShuttingDown { throw .closed }
        // listen(2) on a socket that already listens only updates its backlog. Done here first so
        // that a bad fd fails while the caller still owns it.
        guard Glibc.listen(fd, backlog) == 0 else { throw .system(operation: "listen", code: -errno) }
        let transport: SocketEndpoint.Transport = TCPSocket.isTCP(fd) ? .tcp : .unix
        let listener = StreamListener(loop: loop, path: nil, options: options, transport: transport)
        var status =
            switch transport {
            case .unix: uv_pipe_open(StreamHandle.pipe(listener.stream), fd)
            case .tcp: uv_tcp_open(StreamHandle.tcp(listener.stream), fd)
            }
        guard status == 0 else {
            listener.close() // the handle never took the fd
            throw .system(operation: transport == .unix ? "uv_pipe_open" : "uv_tcp_open", code: status)
        }
        status = uv_listen(listener.stream, backlog, StreamListener.onPeer)
        guard status == 0 else {
            listener.close()
            throw .system(operation: "listen", code: status)
        }
        return listener
    }

    /// Starts handing accepted peers to `onConnection` (on the loop thread), including any that
    /// waited since `bind`/`adopt`.
    public func start(_ onConnection: @escaping (Connection) -> Void) {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        connectionHandler = onConnection
        if hasWaitingPeer {
            hasWaitingPeer = false
            acceptPeer()
        }
    }

    /// Mutual TLS for every connection accepted from now on (a server-role context), or nil for
    /// plain streams. With it, a peer is handed to the handler only once its handshake completed
    /// with a certificate the suite CA signed (``Connection/peerName`` names it); a failed or
    /// unfinished handshake (`handshakeTimeout`) goes to ``onAcceptError`` and the connection closes.
    /// Set it again with a new context to take rotated files: established connections keep theirs.
    public func useTLS(_ context: TLSContext?, handshakeTimeout: Duration = .seconds(10)) {
        loop.preconditionInEventLoop()
        precondition(context?.role != .client, "a listener needs a server-role TLS context")
        tlsContext = context
        tlsHandshakeTimeout = handshakeTimeout
    }

    /// The TLS context new connections get, nil for plain streams.
    public var tls: TLSContext? {
        loop.preconditionInEventLoop()
        return tlsContext
    }

    /// Bounds the peers accepted while their TLS handshake is under way with `gate` (shared with
    /// whatever else should count against the same bounds), or nil for no bound. A peer past the
    /// gate's bounds is closed at accept, before any TLS state is made for it; one that passes
    /// holds its place until its handshake ends, either way. Plain streams are not gated: they
    /// are admitted (or refused) by the handler at once.
    public func useStartupGate(_ gate: StartupGate?) {
        loop.preconditionInEventLoop()
        startupGate = gate
    }

    /// Called when accepting fails (for example `EMFILE`); the listener keeps listening.
    public var onAcceptError: ((EventLoopError) -> Void)? {
        get { loop.preconditionInEventLoop(); return acceptErrorHandler }
        set { loop.preconditionInEventLoop(); acceptErrorHandler = newValue }
    }

    /// Stops listening and closes the socket. Idempotent. Removes the socket file only when this
    /// listener bound it (never an adopted socket's).
    public func close() {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        isClosing = true
        connectionHandler = nil
        loopPicker = nil
        handOffHandler = nil
        handOffErrorHandler = nil
        acceptErrorHandler = nil
        // For a bound pipe, libuv's close unlinks the path before closing the fd.
        uv_close(stream.asHandle, StreamListener.onClosed)
    }

    private func acceptPeer() {
        let connection = Connection(loop: loop, options: options, state: .open, transport: transport)
        let status = uv_accept(stream, connection.stream)
        guard status == 0 else {
            connection.beginClose(error: nil)
            acceptFailed(status)
            return
        }
        // A stranger's place is counted before anything else is spent on it: dropped here, it
        // cost one accept and one close.
        var ticket: StartupGate.Ticket?
        if tlsContext != nil, let startupGate {
            let address: String? =
                if case .tcp(let host, _) = connection.peerEndpoint { host } else { nil }
            ticket = startupGate.enter(address: address)
            guard ticket != nil else { return connection.beginClose(error: nil) }
        }
        // Picked once accepted, so a failed accept counts against no loop.
        let picked = loopPicker?()
        if let picked, picked !== loop {
            handOff(connection, to: picked, ticket: ticket)
            return
        }
        if transport == .tcp { StreamHandle.tuneConnected(connection.stream) }
        guard let tlsContext else {
            connectionHandler?(connection)
            return
        }
        connection.beginTLS(tlsContext, expectedPeer: nil, timeout: tlsHandshakeTimeout) { [weak self] error in
            ticket?.release()
            guard let self, !self.isClosing else {
                connection.close()
                if let picked { self?.handOffErrorHandler?(picked, .closed) }
                return
            }
            if let error {
                if picked != nil { self.handOffErrorHandler?(loop, error) } else { self.acceptErrorHandler?(error) }
            } else {
                self.connectionHandler?(connection)
            }
        }
    }

    private static let onPeer: uv_connection_cb = { server, status in
        let listener = HandleData.owner(of: server?.asHandle, as: StreamListener.self)
        guard !listener.isClosing else { return }
        guard status == 0 else {
            listener.acceptFailed(status)
            return
        }
        if listener.connectionHandler == nil {
            // Not started: libuv holds this peer and stops polling until we accept it.
            listener.hasWaitingPeer = true
        } else {
            listener.acceptPeer()
        }
    }

    private static let onClosed: uv_close_cb = { handle in
        let listener = HandleData.releaseOwner(of: handle, as: StreamListener.self)
        StreamHandle.deallocate(listener.stream)
    }
}

extension StreamListener: ClosedAtShutdown {}
