import VerticalsEventLoop

/// The connection timeouts of ``ConnectionLimits``, enforced by one repeating timer that looks at
/// every connection a few times per shortest timeout — no timer per connection or per frame,
/// and none at all while the daemon has no connection.
extension ServiceHost {
    func startSweeping() {
        if let sweepTimer, sweepTimer.isActive { return }
        let timer = sweepTimer ?? LoopTimer(loop: loop)
        let interval = configuration.limits.sweepInterval
        timer.start(after: interval, repeating: interval) { [weak self] in self?.sweep() }
        sweepTimer = timer
    }

    func stopSweepingIfIdle() {
        guard connections.isEmpty else { return }
        sweepTimer?.stop()
    }

    private func sweep() {
        let now = MonotonicInstant.now
        let limits = configuration.limits
        for server in Array(connections.values) {
            server.enforceTimeouts(now: now, limits: limits)
        }
    }
}
