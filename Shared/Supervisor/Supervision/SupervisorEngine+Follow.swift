import VerticalsContract
import VerticalsServiceKit

/// Following the engine as it runs: a service's new log lines (``Supervisor/logs``) and every
/// service's state changes (``Supervisor/watch``), as async sequences the control socket streams.
///
/// Each follower has its own buffer of at most ``followBuffer`` items past what it asked for
/// first: one that falls further behind (its reader is slower than the service writes) loses
/// the oldest, so a stalled follower never holds more than that. The log file keeps every line.
extension SupervisorEngine {
    /// Items a follower may fall behind before the oldest are dropped.
    public static let followBuffer = 1_000

    /// `name`'s last `lines` log lines, then each line written to its log from now on; ends when
    /// the consumer stops, or when the log closes (the service left the manifest, or the engine
    /// closed). `notFound` for an unknown service.
    public func followLog(_ name: String, lines: Int) async throws -> AsyncStream<String> {
        let unit = try unit(name)
        let (stream, continuation) = AsyncStream<String>.makeStream(
            bufferingPolicy: .bufferingNewest(lines + Self.followBuffer))
        // In one turn of the loop: the file's last lines, then the follower; lines are written on
        // this thread, so none falls between the two, and none comes twice.
        for line in unit.log.lastLines(lines) { continuation.yield(line) }
        let id = takeFollowerID()
        unit.log.follow(id, line: { continuation.yield($0) }, end: { continuation.finish() })
        continuation.onTermination = { _ in
            self.loop.execute {
                self.assumeIsolated { engine in
                    if let unit = engine.units[name] { unit.log.unfollow(id) }
                }
            }
        }
        return stream
    }

    /// Every service's status now, in start order, then a service's status each time its state
    /// changes; ends when the consumer stops.
    public func followStates() async throws -> AsyncStream<Supervisor.ServiceStatus> {
        let now = ContinuousClock.now
        let current = order.compactMap { units[$0]?.status(now: now) }
        let (stream, continuation) = AsyncStream<Supervisor.ServiceStatus>.makeStream(
            bufferingPolicy: .bufferingNewest(current.count + Self.followBuffer))
        for status in current { continuation.yield(status) }
        let id = takeFollowerID()
        stateFollowers[id] = { status in continuation.yield(status) }
        continuation.onTermination = { _ in
            self.loop.execute { self.assumeIsolated { engine in engine.stateFollowers[id] = nil } }
        }
        return stream
    }

    private func takeFollowerID() -> UInt64 {
        defer { nextFollowerID += 1 }
        return nextFollowerID
    }
}
