import CLibUV

/// The libuv stream under a ``Connection`` or ``StreamListener``: a `uv_pipe_t` for a Unix
/// socket or a `uv_tcp_t` for TCP, held as the `uv_stream_t` every read, write, listen and
/// accept takes, so both transports share one code path.
enum StreamHandle {
    /// The bytes either handle needs: one allocation fits both.
    private static let size = max(MemoryLayout<uv_pipe_t>.size, MemoryLayout<uv_tcp_t>.size)
    private static let alignment = max(MemoryLayout<uv_pipe_t>.alignment, MemoryLayout<uv_tcp_t>.alignment)

    /// A new, initialised handle on `loop` for `transport`; freed with ``deallocate(_:)`` in its close callback.
    static func make(_ transport: SocketEndpoint.Transport, on loop: EventLoop) -> UnsafeMutablePointer<uv_stream_t> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: alignment)
        switch transport {
        case .unix:
            let pipe = raw.bindMemory(to: uv_pipe_t.self, capacity: 1)
            uv_pipe_init(loop.loop, pipe, 0)
            return pipe.asStream
        case .tcp:
            let tcp = raw.bindMemory(to: uv_tcp_t.self, capacity: 1)
            uv_tcp_init(loop.loop, tcp)
            return tcp.asStream
        }
    }

    /// Frees a handle from ``make(_:on:)`` (after libuv's close callback).
    static func deallocate(_ stream: UnsafeMutablePointer<uv_stream_t>) {
        UnsafeMutableRawPointer(stream).deallocate()
    }

    /// The `uv_tcp_t` view of a TCP handle.
    static func tcp(_ stream: UnsafeMutablePointer<uv_stream_t>) -> UnsafeMutablePointer<uv_tcp_t> {
        UnsafeMutablePointer<uv_tcp_t>(OpaquePointer(stream))
    }

    /// The `uv_pipe_t` view of a Unix handle.
    static func pipe(_ stream: UnsafeMutablePointer<uv_stream_t>) -> UnsafeMutablePointer<uv_pipe_t> {
        UnsafeMutablePointer<uv_pipe_t>(OpaquePointer(stream))
    }

    /// Seconds of idleness before TCP keep-alive probes a silent peer.
    static let keepAliveDelay: UInt32 = 30

    /// A connected TCP stream's options: `TCP_NODELAY` (frames go out at once: the connection
    /// already batches a turn's writes itself) and keep-alive (a peer host that vanished is
    /// noticed). Failures are ignored: they only cost latency or detection time.
    static func tuneConnected(_ stream: UnsafeMutablePointer<uv_stream_t>) {
        _ = uv_tcp_nodelay(tcp(stream), 1)
        _ = uv_tcp_keepalive(tcp(stream), 1, keepAliveDelay)
    }
}
