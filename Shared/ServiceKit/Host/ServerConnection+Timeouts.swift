import VerticalsClient
import VerticalsWire

/// A connection's timeouts, checked by the host's sweep (see `ServiceHost+Timeouts.swift`): the
/// first frame must come within the handshake timeout, a frame once begun must finish within
/// the frame timeout, and a connection with nothing in flight is closed after the idle timeout.
/// The clocks are ``ConnectionTimeouts``; this closes the connection when one runs out.
extension ServerConnection {
    /// Checks the timeouts; returns when this connection's idle timeout falls due if it is
    /// settled (a frame came once, none since the last look, no part of one waiting, nothing in
    /// flight), so the host may rest its sweep until then; nil when it needs regular looks.
    @discardableResult
    func enforceTimeouts(now: MonotonicInstant, limits: ConnectionLimits) -> MonotonicInstant? {
        guard !connection.isClosed else { return nil }
        let paused = connection.isReadingPaused
        let verdict = timeouts.look(
            now: now, receiving: connection.bufferedInboundByteCount > 0 && !paused, inFlight: inFlightCount,
            readingPaused: paused, limits: limits)
        switch verdict {
        case .watch:
            return nil
        case .settled(let until):
            return until
        case .expired(.handshake):
            close(ServiceError(.deadlineExceeded, "no whole frame within \(limits.handshakeTimeout) of connecting"))
        case .expired(.frame):
            close(
                ServiceError(
                    .deadlineExceeded,
                    "a frame begun was not finished within \(limits.frameTimeout) (\(connection.bufferedInboundByteCount) bytes of it came)"
                ))
        case .expired(.idle):
            // Nothing in flight and nothing read since: whatever the client sends now was never seen.
            close(Self.idleError(limits.idleTimeout))
        }
        return nil
    }

    /// The error an idle connection is closed with (the idle timeout, or the host's idle exit):
    /// retryable, and marked unread, so the client sends what it had pending again on a new connection.
    static func idleError(_ idle: Duration) -> ServiceError {
        ServiceError(
            .unavailable, "idle for \(idle): closing; connect again", details: [ServiceError.unreadDetail],
            retryable: true)
    }
}
