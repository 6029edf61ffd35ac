import CLibUV
import Synchronization
import VerticalsWire

/// A connected stream, a Unix socket or TCP, carrying length-prefixed frames; loop-confined.
///
/// Get one from ``connect(path:on:options:_:)``, ``connect(to:on:options:_:)`` or from a
/// ``StreamListener``. Both transports run the same code (libuv's `uv_stream_t`): framing,
/// backpressure, limits and closing behave the same; only ``peerCredentials`` differ (TCP has none). Set the handlers,
/// then call ``startReading()``. Incoming bytes go through Wire's `FrameDecoder`, so
/// ``onFrame`` sees whole payloads whatever the chunking. Writes try the socket at once and
/// queue only what the kernel did not take; past ``ConnectionOptions/highWaterMark`` queued
/// bytes, reading pauses until the queue drains (see `Connection+Backpressure.swift`).
///
/// ```swift
/// listener.start { connection in
///     connection.onFrame = { payload in connection.write(FrameEncoder.frame(handle(payload))) }
///     connection.onFrameError = { _ in
///         connection.write(FrameEncoder.frame(protocolErrorEnvelope))
///         connection.closeAfterFlush()
///     }
///     connection.onClose = { error in if let error { log(error) } }
///     connection.startReading()
/// }
/// ```
///
/// Lifetime: the handle keeps the connection alive until it is closed (by ``close()``, the
/// peer, an error or loop shutdown), so nobody needs to hold it; ``onClose`` runs exactly once,
/// after which the handlers are released (breaking any cycle they form with the connection).
public final class Connection: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. Every public method and property, except the immutable
    // `id`, `loop` and `options`, starts with `loop.preconditionInEventLoop()`, and libuv runs
    // every callback on the loop thread; so every `var` is only touched on that thread.

    typealias State = ConnectionStateMachine.State

    /// Unique within the process, for logs and maps.
    public let id: UInt64
    /// The loop this connection lives on.
    public let loop: EventLoop
    /// The limits this connection was created with.
    public let options: ConnectionOptions

    /// Unix socket or TCP.
    public let transport: SocketEndpoint.Transport
    let stream: UnsafeMutablePointer<uv_stream_t> // a uv_pipe_t or uv_tcp_t (StreamHandle); freed in the close callback
    // `@exclusivity(unchecked)` on the state machine and the request path's buffers: a class's
    // stored property mutated through a method (`machine.queued(_:)`, `decoder.nextFrame()`,
    // `corked.append`) is checked at run time, about 60 instructions an access and ~400 a request
    // in all. Sound because they are loop-confined (above) and no access overlaps another: the
    // methods that mutate them are the machine's, Wire's decoder's and Array's, which never call
    // back into this connection.
    /// The lifecycle, reading and backpressure: every change of them is an event of the machine,
    /// and what it answers is carried out by ``perform(_:)``.
    @exclusivity(unchecked) var machine: ConnectionStateMachine
    var closeError: EventLoopError?
    @exclusivity(unchecked) var decoder: FrameDecoder
    /// True while ``deliverFrames()`` runs, so a handler that closes or pauses does not re-enter it.
    @exclusivity(unchecked) var isDelivering = false
    /// Frames written this loop turn, sent together at its end (see Connection+Writing).
    @exclusivity(unchecked) var corked: [UInt8] = []
    @exclusivity(unchecked) var corkedCompletions: [(EventLoopError?) -> Void] = []
    /// Registered with the loop for this turn's end-of-turn flush.
    var isFlushScheduled = false
    var flushDeadline: LoopTimer?
    var cachedCredentials: PeerCredentials?
    /// TLS on this connection (``beginTLS(_:expectedPeer:timeout:_:)``), nil for plain streams.
    var tls: TLSSession?
    /// A server's TLS before its peer sent a byte: the session is made from it when the first
    /// bytes arrive, so a peer that connects and stays silent costs no TLS state.
    var pendingTLS: TLSContext?
    var securedHandler: ((EventLoopError?) -> Void)?
    var handshakeDeadline: LoopTimer?
    /// The vertical the client expects at the other end (its certificate's `verticals://NAME`).
    var expectedPeer: String?
    /// A host name being resolved for ``connect(to:on:options:_:)``: cancelled if the connection closes first.
    var pendingResolve: UnsafeMutablePointer<uv_getaddrinfo_t>?
    var frameHandler: (([UInt8]) -> Void)?
    var frameBytesHandler: ((ByteReader) -> Void)?
    var frameErrorHandler: ((FrameError) -> Void)?
    var closeHandler: ((EventLoopError?) -> Void)?

    private static let nextID = Atomic<UInt64>(1)

    /// A new, unconnected handle on `loop` (on the loop thread).
    init(loop: EventLoop, options: ConnectionOptions, state: State, transport: SocketEndpoint.Transport = .unix) {
        self.id = Connection.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.loop = loop
        self.options = options
        self.machine = ConnectionStateMachine(state, options: options)
        self.decoder = FrameDecoder(maxFrameSize: options.maxFrameSize)
        self.transport = transport
        self.stream = StreamHandle.make(transport, on: loop)
        HandleData.retain(self, into: stream.asHandle)
    }

    /// Called with each complete frame payload (without its length prefix).
    public var onFrame: (([UInt8]) -> Void)? {
        get { loop.preconditionInEventLoop(); return frameHandler }
        set { loop.preconditionInEventLoop(); frameHandler = newValue }
    }

    /// Called with each complete frame payload in place, instead of ``onFrame``: a reader over the
    /// bytes as they were received, with no copy into an array of its own.
    ///
    /// What may outlive the handler: anything decoded from the payload (a `String`, an array, an
    /// Input) is the handler's own. The reader itself (or a `Message` made from it in place) is a
    /// value and safe to keep, but it shares the connection's read buffer: while it is kept, the
    /// next read copies that buffer rather than write into it, an allocation each time. Decode
    /// what you need and let the reader go, or keep a copy of the payload
    /// (`reader.remainingBytes()`, or `Message.detached()`).
    /// When set, ``onFrame`` is not called.
    public var onFrameBytes: ((ByteReader) -> Void)? {
        get { loop.preconditionInEventLoop(); return frameBytesHandler }
        set { loop.preconditionInEventLoop(); frameBytesHandler = newValue }
    }

    /// Called once if the peer breaks framing (a length of 0 or over the limit); reading has
    /// stopped by then. Typically: write an error frame, then ``closeAfterFlush()``.
    /// Without a handler the connection closes after flushing.
    public var onFrameError: ((FrameError) -> Void)? {
        get { loop.preconditionInEventLoop(); return frameErrorHandler }
        set { loop.preconditionInEventLoop(); frameErrorHandler = newValue }
    }

    /// Called exactly once, after the handle closed: `nil` for a clean end of stream or a local
    /// close, otherwise the error that closed it. At the peer's end of stream, bytes still
    /// queued are flushed first (the peer may only have half-closed).
    public var onClose: ((EventLoopError?) -> Void)? {
        get { loop.preconditionInEventLoop(); return closeHandler }
        set { loop.preconditionInEventLoop(); closeHandler = newValue }
    }

    /// True once the connection is closing or closed: writes fail with ``EventLoopError/closed``.
    public var isClosed: Bool {
        loop.preconditionInEventLoop()
        return machine.state >= .closing
    }

    /// The peer's pid, uid and gid (`SO_PEERCRED`), or nil once closed — and always nil over
    /// TCP, where the kernel knows no peer process (Linux would answer uid 65534, "nobody").
    public var peerCredentials: PeerCredentials? {
        loop.preconditionInEventLoop()
        if let cachedCredentials { return cachedCredentials }
        guard transport == .unix, machine.isConnected else { return nil }
        var fd: uv_os_fd_t = -1
        guard uv_fileno(stream.asHandle, &fd) == 0 else { return nil }
        cachedCredentials = PeerCredentials.read(fromSocket: fd)
        return cachedCredentials
    }

    /// Closes now. Idempotent. Pending write completions get ``EventLoopError/closed``, then
    /// ``onClose`` runs (with nil) from the close callback.
    public func close() {
        loop.preconditionInEventLoop()
        beginClose(error: nil)
    }

    /// Stops reading and closes once every queued byte is written, or after
    /// ``ConnectionOptions/flushTimeout`` if the peer does not read them. Later writes fail
    /// with ``EventLoopError/closed``.
    public func closeAfterFlush() {
        loop.preconditionInEventLoop()
        perform(machine.flushRequested())
    }

    /// Carries out what the machine answered to an event, in the order ``ConnectionStateMachine/Actions`` lists.
    func perform(_ actions: ConnectionStateMachine.Actions) {
        guard !actions.isEmpty else { return }
        if actions.contains(.stopReading) { uv_read_stop(stream) }
        if actions.contains(.deliverFrames) {
            deliverFrames()
            perform(machine.framesDelivered()) // reading as the handlers left it: they may have paused or closed
        }
        if actions.contains(.startReading) {
            let status = uv_read_start(stream, Connection.onAllocate, Connection.onRead)
            if status != 0 { beginClose(error: .uv("read", status)) }
        }
        if actions.contains(.flushCorked) {
            flushCorked()
            perform(machine.flushStarted()) // nothing if the flush closed it already
        }
        if actions.contains(.armFlushDeadline) {
            let deadline = LoopTimer(loop: loop)
            deadline.start(after: options.flushTimeout) { [weak self] in
                self?.beginClose(error: .system(operation: "closeAfterFlush", code: UV_ETIMEDOUT.rawValue))
            }
            flushDeadline = deadline
        }
        if actions.contains(.close) { beginClose(error: nil) }
    }

    /// The one path to closing: stops everything and asks libuv to close the handle.
    func beginClose(error: EventLoopError?) {
        guard machine.closeRequested() else { return }
        closeError = error
        dropCorked()
        flushDeadline?.close()
        flushDeadline = nil
        handshakeDeadline?.close()
        handshakeDeadline = nil
        // A lookup not yet started is dropped (its callback then reports .closed); one running finishes.
        if let pendingResolve { _ = uv_cancel(pendingResolve.asRequest) }
        uv_close(stream.asHandle, Connection.onClosed)
    }

    /// After libuv's close callback: the handle memory is gone; tell the owner, drop the handlers.
    private func didClose() {
        machine.closed()
        StreamHandle.deallocate(stream)
        if let secured = securedHandler {
            securedHandler = nil
            secured(closeError ?? .tls("the connection closed before the TLS handshake finished"))
        }
        let handler = closeHandler
        frameHandler = nil
        frameBytesHandler = nil
        frameErrorHandler = nil
        closeHandler = nil
        handler?(closeError)
    }

    private static let onClosed: uv_close_cb = { handle in
        // Pending writes and a pending connect were cancelled before this runs.
        HandleData.releaseOwner(of: handle, as: Connection.self).didClose()
    }
}

extension Connection: LoopHandleOwner {
    func closeForShutdown() {
        beginClose(error: nil)
    }
}
