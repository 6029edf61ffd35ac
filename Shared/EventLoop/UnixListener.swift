import CLibUV
import Glibc

/// A listening Unix socket that hands each accepted peer to a handler as a ``Connection``;
/// loop-confined.
///
/// ```swift
/// let listener = try UnixListener.bind(path: "/run/verticals/identity.sock", on: loop, mode: 0o660)
/// listener.start { connection in … connection.startReading() }
/// ```
///
/// The socket listens from `bind`/`adopt` on; peers that arrive before ``start(_:)`` wait in
/// the backlog. The handle keeps the listener alive until ``close()`` or loop shutdown.
public final class UnixListener: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. Every public method and property, except the immutable
    // `loop`, `path` and `options`, starts with `loop.preconditionInEventLoop()`, and libuv runs
    // every callback on the loop thread; so every `var` is only touched on that thread.

    /// The loop this listener lives on.
    public let loop: EventLoop
    /// The path this listener bound, or nil for an adopted socket.
    public let path: String?
    /// The options every accepted ``Connection`` gets.
    public let options: ConnectionOptions

    let pipe: UnsafeMutablePointer<uv_pipe_t>  // freed in the close callback
    var connectionHandler: ((Connection) -> Void)?
    var acceptErrorHandler: ((EventLoopError) -> Void)?
    var hasWaitingPeer = false
    var isClosing = false

    private init(loop: EventLoop, path: String?, options: ConnectionOptions) {
        self.loop = loop
        self.path = path
        self.options = options
        self.pipe = .allocate(capacity: 1)
        uv_pipe_init(loop.loop, pipe, 0)
        HandleData.retain(self, into: pipe.asHandle)
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
    ) throws(EventLoopError) -> UnixListener {
        loop.preconditionInEventLoop()
        if let error = UnixSocketPath.validate(path, operation: "bind") { throw error }
        if loop.isShuttingDown { throw .closed }
        try UnixSocketPath.clearStale(path)

        let listener = UnixListener(loop: loop, path: path, options: options)
        var status = uv_pipe_bind(listener.pipe, path)
        guard status == 0 else {
            listener.close()
            throw UnixSocketPath.bindError(status, path: path)
        }
        if let mode, chmod(path, mode_t(mode)) != 0 {
            let code = -errno
            listener.close()  // libuv removes the file it bound
            throw .system(operation: "chmod", code: code)
        }
        status = uv_listen(listener.pipe.asStream, backlog, UnixListener.onPeer)
        guard status == 0 else {
            listener.close()
            throw .uv("listen", status, path: path)
        }
        return listener
    }

    /// Serves an inherited listening socket (socket activation: `LISTEN_FDS`, or the supervisor's
    /// hand-off). Call on the loop thread. On success the listener owns `fd`; when `listen(2)`
    /// fails on it (not a socket, not bound) the caller still does. ``close()`` never removes the socket's file.
    public static func adopt(
        fd: Int32, on loop: EventLoop, backlog: Int32 = 511, options: ConnectionOptions = .init()
    ) throws(EventLoopError) -> UnixListener {
        loop.preconditionInEventLoop()
        if loop.isShuttingDown { throw .closed }
        // listen(2) on a socket that already listens only updates its backlog. Done here first so
        // that a bad fd fails while the caller still owns it.
        guard Glibc.listen(fd, backlog) == 0 else { throw .system(operation: "listen", code: -errno) }
        let listener = UnixListener(loop: loop, path: nil, options: options)
        var status = uv_pipe_open(listener.pipe, fd)
        guard status == 0 else {
            listener.close()  // the handle never took the fd
            throw .system(operation: "uv_pipe_open", code: status)
        }
        status = uv_listen(listener.pipe.asStream, backlog, UnixListener.onPeer)
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
        acceptErrorHandler = nil
        // For a bound pipe, libuv's close unlinks the path before closing the fd.
        uv_close(pipe.asHandle, UnixListener.onClosed)
    }

    private func acceptPeer() {
        let connection = Connection(loop: loop, options: options, state: .open)
        let status = uv_accept(pipe.asStream, connection.pipe.asStream)
        guard status == 0 else {
            connection.beginClose(error: nil)
            acceptErrorHandler?(.uv("accept", status))
            return
        }
        connectionHandler?(connection)
    }

    private static let onPeer: uv_connection_cb = { server, status in
        let listener = HandleData.owner(of: server?.asHandle, as: UnixListener.self)
        guard !listener.isClosing else { return }
        guard status == 0 else {
            listener.acceptErrorHandler?(.uv("accept", status))
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
        let listener = HandleData.releaseOwner(of: handle, as: UnixListener.self)
        listener.pipe.deallocate()
    }
}

extension UnixListener: LoopHandleOwner {
    func closeForShutdown() {
        close()
    }
}
