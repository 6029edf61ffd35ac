import CLibUV
import Glibc

/// Serving accepted peers on several loops: one listener accepts, and each peer becomes a
/// ``Connection`` of the loop a picker chooses, for its whole life.
///
/// Why one acceptor rather than every loop listening on the shared socket: libuv accepts every
/// waiting peer in one callback, so the first loop to wake takes them all (four clients that
/// connect together land on one loop), and every loop would wake for every peer. Here only the
/// listener's loop wakes to accept, and the picker balances.
///
/// libuv accepts only into a handle of the listener's own loop, so a peer bound elsewhere is
/// accepted into a carrier handle here, its socket duplicated (`F_DUPFD_CLOEXEC`) and the
/// carrier closed; the target loop opens the duplicate (`uv_pipe_open`/`uv_tcp_open`), tunes
/// it, runs the TLS handshake if any, and calls the handler there. Two system calls more per
/// connection, none per frame.
extension StreamListener {
    /// Starts handing accepted peers to `onConnection`, each on the loop `pick` returns for it
    /// (called on this listener's loop, once per peer, after it was accepted); `onConnection`
    /// runs on that loop. A peer picked for a loop that then never gets it (the hand-off or its
    /// TLS handshake failed, or the listener or loop closed meanwhile) goes to `onHandOffError`
    /// with that loop, on either thread: whoever counts connections per loop can take it back.
    ///
    /// ```swift
    /// var next = 0
    /// listener.start(across: { next += 1; return loops[next % loops.count] }) { connection in
    ///     serve(connection)  // on connection.loop
    /// }
    /// ```
    public func start(
        across pick: @escaping () -> EventLoop,
        onHandOffError: (@Sendable (EventLoop, EventLoopError) -> Void)? = nil,
        _ onConnection: @escaping @Sendable (Connection) -> Void
    ) {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        loopPicker = pick
        handOffHandler = onConnection
        handOffErrorHandler = onHandOffError
        start(onConnection)
    }

    /// Has `target` serve the socket of `carrier`, a peer just accepted here (closed here after);
    /// its place at the startup gate, if any, goes with it until its handshake ends.
    func handOff(_ carrier: Connection, to target: EventLoop, ticket: StartupGate.Ticket?) {
        var fd: uv_os_fd_t = -1
        let status = uv_fileno(carrier.stream.asHandle, &fd)
        let moved = status == 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1
        let code = status != 0 ? status : -errno
        carrier.beginClose(error: nil) // closes `fd`; the duplicate keeps the socket open
        let onError = handOffErrorHandler
        guard moved >= 0, let handler = handOffHandler else {
            if moved >= 0 { Glibc.close(moved) }
            ticket?.release()
            onError?(target, .system(operation: "dup", code: code))
            return
        }
        let (options, transport, tls, timeout) = (options, transport, tlsContext, tlsHandshakeTimeout)
        let sent = target.execute {
            Self.open(
                moved, on: target, options: options, transport: transport, tls: tls, timeout: timeout,
                ticket: ticket, onError: onError, handler)
        }
        if !sent {
            Glibc.close(moved)
            ticket?.release()
            onError?(target, .closed)
        }
    }

    /// On `target`: the accepted socket `fd` as a connection of that loop, handed to `handler`.
    private static func open(
        _ fd: Int32, on target: EventLoop, options: ConnectionOptions, transport: SocketEndpoint.Transport,
        tls: TLSContext?, timeout: Duration, ticket: StartupGate.Ticket?,
        onError: (@Sendable (EventLoop, EventLoopError) -> Void)?, _ handler: @escaping @Sendable (Connection) -> Void
    ) {
        guard !target.isShuttingDown else {
            ticket?.release()
            Glibc.close(fd)
            onError?(target, .closed)
            return
        }
        let connection = Connection(loop: target, options: options, state: .open, transport: transport)
        let status =
            switch transport {
            case .unix: uv_pipe_open(StreamHandle.pipe(connection.stream), fd)
            case .tcp: uv_tcp_open(StreamHandle.tcp(connection.stream), fd)
            }
        guard status == 0 else {
            Glibc.close(fd) // the handle never took it
            ticket?.release()
            connection.beginClose(error: nil)
            onError?(target, .system(operation: transport == .unix ? "uv_pipe_open" : "uv_tcp_open", code: status))
            return
        }
        if transport == .tcp { StreamHandle.tuneConnected(connection.stream) }
        guard let tls else {
            handler(connection)
            return
        }
        connection.beginTLS(tls, expectedPeer: nil, timeout: timeout) { error in
            ticket?.release()
            if let error {
                onError?(target, error)
            } else {
                handler(connection)
            }
        }
    }
}
