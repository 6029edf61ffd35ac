import VerticalsClient
import VerticalsEventLoop

/// The connection timeouts of ``ConnectionLimits``, enforced by one timer that looks at every
/// connection a few times per shortest timeout — no timer per connection or per frame, and none
/// at all while the daemon has no connection.
///
/// The timer rests while every connection is settled (a client that keeps its connection open
/// between calls, as a vertical does to the verticals it calls): it is then armed once, for the
/// earliest idle timeout, so an idle daemon with open connections sleeps instead of waking
/// every sweep interval. A frame that comes meanwhile restarts its connection's
/// idle clock itself (``ConnectionTimeouts/frameWhileSweepRests(now:)``), so a call on a kept
/// connection (a liveness check, say) costs no sweep either; when the timer fires, it looks at
/// every connection and rests again, or resumes regular looks if one is not settled (a request
/// still in flight). A new connection resumes them at once (its handshake timeout). What the
/// rest gives up: a frame begun on a settled connection and never finished is seen at the next
/// look rather than within the frame timeout; a client could hold the connection that long by
/// staying silent, so this only lets its partial frame (at most
/// ``ConnectionLimits/maxFrameSize``) stay as long.
extension ServiceHost {
    /// Regular looks every sweep interval, from now (a connection arrived, or one was not settled).
    func startSweeping() {
        if let sweepTimer, sweepTimer.isActive, !sweepRest.isResting { return }
        sweepRest.isResting = false
        let timer = sweepTimer ?? LoopTimer(loop: loop)
        let interval = configuration.limits.sweepInterval
        timer.start(after: interval, repeating: interval) { [weak self] in self?.sweep() }
        sweepTimer = timer
    }

    func stopSweepingIfIdle() {
        guard connections.isEmpty else { return }
        sweepTimer?.stop()
        sweepRest.isResting = false
    }

    private func sweep() {
        let now = MonotonicInstant.now
        let limits = configuration.limits
        var settledUntil: MonotonicInstant? = nil
        var allSettled = true
        for server in connections {
            if let due = server.enforceTimeouts(now: now, limits: limits) {
                settledUntil = settledUntil.map { min($0, due) } ?? due
            } else if !server.connection.isClosed {
                allSettled = false
            }
        }
        guard let sweepTimer, !connections.isEmpty else { return }
        if allSettled, let settledUntil {
            // One look just past the earliest idle deadline (the check is "longer than"), never
            // sooner than a regular look.
            sweepRest.isResting = true
            let delay = max(limits.sweepInterval, settledUntil - now + .milliseconds(10))
            sweepTimer.start(after: delay) { [weak self] in self?.sweep() }
        } else if sweepRest.isResting {
            startSweeping()
        }
    }
}
