import VerticalsEventLoop
import VerticalsWire

/// Streams: a streaming route's events go out on the request's connection, and the producer is
/// held back while the reader is slower than it (see `Router+Streams`).
extension ServerConnection: EventSink {
    /// Writes an `event` frame of request `id`; suspends while the outbound queue is over the
    /// connection's high-water mark.
    ///
    /// Suspending until *this* frame is written (its write completion) means every byte queued
    /// before it went out too, so a stream adds at most one frame past the high-water mark to
    /// the queue, however slow the reader: the producer is not asked for its next element until
    /// then. Completions run on the loop thread, never inside `write`.
    nonisolated(nonsending) func sendEvent(_ frame: [UInt8], id: UInt64) async throws {
        loop.preconditionInEventLoop()
        try Task.checkCancellation()
        // Closing (a protocol error, a timeout) or closed: the stream's last answer is not sent.
        guard !connection.isClosed, machine.answers else { throw CancellationError() }
        guard connection.queuedByteCount + frame.count > connection.options.highWaterMark else {
            connection.write(frame)
            return
        }
        let connection = self.connection
        let failure: EventLoopError? = await withCheckedContinuation { continuation in
            connection.write(frame) { error in continuation.resume(returning: error) }
        }
        loop.preconditionInEventLoop()
        if failure != nil { throw CancellationError() }
        try Task.checkCancellation()
    }
}
