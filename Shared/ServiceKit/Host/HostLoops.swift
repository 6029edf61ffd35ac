import Synchronization
import VerticalsEventLoop

/// The event loops a host serves on beside its own (``HostConfiguration/loops``), for the one
/// built-in that must reach each: `daemon.health` answers only once every loop has run an empty
/// closure, so a handler wedged on any loop fails the supervisor's liveness check whichever loop
/// the check's connection landed on. With one loop it holds none and costs nothing.
final class HostLoops: Sendable {
    private let loops = Mutex<[EventLoop]>([])

    /// Set once, when the host starts its shards.
    func set(_ loops: [EventLoop]) {
        self.loops.withLock { $0 = loops }
    }

    /// Returns once every loop other than the caller's has taken a turn (each in order; one
    /// wedged never returns, and the caller's deadline decides). Throws once a loop has stopped.
    func eachTakesATurn() async throws {
        for loop in loops.withLock({ $0 }) where !loop.inEventLoop {
            try await loop.submit {}
        }
    }
}
