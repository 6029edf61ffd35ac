import VerticalsClient
import VerticalsEventLoop

extension Connection {
    /// Closes after a last frame (an error saying why) without racing the peer: closing at once
    /// would make the peer's next write fail (`EPIPE`) before it read the reason. Instead, drop
    /// whatever it still sends, and close when it hangs up, or after `grace` (then waiting up to
    /// the flush timeout for the reason to be written). Nothing sent meanwhile is served.
    func closeLingering(timers: TimerQueue, grace: Duration = .seconds(1)) {
        onFrameBytes = { _ in }
        onFrameError = { [weak self] _ in self?.closeAfterFlush() }
        startReading()
        timers.schedule(at: .now + grace) { [weak self] in self?.closeAfterFlush() }
    }
}
