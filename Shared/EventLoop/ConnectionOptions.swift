import VerticalsWire

/// Limits for one ``Connection``: frame size, outbound backpressure and read size.
public struct ConnectionOptions: Sendable {
    /// The largest frame payload accepted from the peer; a larger declared length is a
    /// protocol error reported through ``Connection/onFrameError``.
    public var maxFrameSize: Int
    /// Queued outbound bytes above which the connection stops reading (backpressure).
    public var highWaterMark: Int
    /// Queued outbound bytes at or below which a paused connection reads again.
    public var lowWaterMark: Int
    /// Whether reading stops while the outbound queue is past ``highWaterMark`` (backpressure): a
    /// server's guard against a peer that sends requests and never reads the answers. A client's
    /// connection reads on whatever it has queued: what it reads are the answers it waits for,
    /// and a client that stopped reading while its requests outgrew the mark would leave both
    /// sides waiting for the other once the server's answers filled the socket.
    public var pausesReadingPastHighWater: Bool
    /// The most bytes taken from the socket in one read.
    public var readBufferSize: Int
    /// How long ``Connection/closeAfterFlush()`` waits for queued bytes to drain before closing anyway.
    public var flushTimeout: Duration

    /// Options with the suite's defaults: 4 MiB frames, 1 MiB / 256 KiB water marks, 64 KiB reads, 1 s flush.
    public init(
        maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize,
        highWaterMark: Int = 1 << 20,
        lowWaterMark: Int = 256 << 10,
        readBufferSize: Int = 64 << 10,
        flushTimeout: Duration = .seconds(1),
        pausesReadingPastHighWater: Bool = true
    ) {
        precondition(lowWaterMark >= 0 && lowWaterMark <= highWaterMark, "need 0 <= lowWaterMark <= highWaterMark")
        precondition(readBufferSize > 0, "readBufferSize must be positive")
        self.maxFrameSize = maxFrameSize
        self.highWaterMark = highWaterMark
        self.lowWaterMark = lowWaterMark
        self.readBufferSize = readBufferSize
        self.flushTimeout = flushTimeout
        self.pausesReadingPastHighWater = pausesReadingPastHighWater
    }
}
