/// Where a streaming operation's route sends its `event` frames: the connection of the request
/// (``ServerConnection``), reached through ``RequestContext``.
protocol EventSink: AnyObject, Sendable {
    /// Writes `frame` (an `event` of request `id`) and returns once the producer may go on:
    /// at once while the connection's outbound queue is under its high-water mark, else after
    /// the frame was written (the reader caught up). Throws `CancellationError` when the request
    /// was cancelled, its deadline passed or the connection closed: the stream then stops.
    nonisolated(nonsending) func sendEvent(_ frame: [UInt8], id: UInt64) async throws
}
