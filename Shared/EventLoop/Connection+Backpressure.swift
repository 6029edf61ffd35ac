import CLibUV

/// Backpressure: a connection whose outbound queue passes the high-water mark stops reading
/// (and stops delivering already-buffered frames) until the queue drains to the low-water mark,
/// so a peer that sends requests but never reads replies cannot grow our memory without bound.
/// A client's connection keeps reading (``ConnectionOptions/pausesReadingPastHighWater``).
extension Connection {
    /// Bytes handed to ``write(_:completion:)`` that the kernel has not taken yet.
    public var queuedByteCount: Int {
        loop.preconditionInEventLoop()
        return machine.queuedBytes
    }

    /// True while backpressure holds reading (the queue passed the high-water mark and has not
    /// yet drained to the low-water mark).
    public var isReadingPaused: Bool {
        loop.preconditionInEventLoop()
        return machine.inbound.paused
    }
}
