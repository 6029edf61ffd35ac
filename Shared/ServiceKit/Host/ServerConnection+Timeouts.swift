import VerticalsClient
import VerticalsWire

/// A connection's timeouts, checked by the host's sweep (see `ServiceHost+Timeouts.swift`): the
/// first frame must come within the handshake timeout, a frame once begun must finish within
/// the frame timeout, and a connection with nothing in flight is closed after the idle timeout.
///
/// The sweep sees state only when it looks, so each clock starts at the first look that finds
/// its condition: a timeout fires between its duration and its duration plus a sweep interval
/// late, never early.
extension ServerConnection {
    /// A frame came while the host's sweep rests: what the sweep's next look would record, now,
    /// so the idle clock restarts without waking it (it then finds the deadline moved on).
    func noteFrameWhileSweepRests() {
        framesAtLastSweep = framesReceived
        quietSince = .now
        partialFrameSince = nil
    }

    /// Checks the timeouts; returns when this connection's idle timeout falls due if it is
    /// settled (a frame came once, none since the last look, no part of one waiting, nothing in
    /// flight), so the host may rest its sweep until then; nil when it needs regular looks.
    @discardableResult
    func enforceTimeouts(now: MonotonicInstant, limits: ConnectionLimits) -> MonotonicInstant? {
        guard !connection.isClosed else { return nil }
        // Bytes of a frame still arriving (not whole frames held back by backpressure).
        let receiving = connection.bufferedInboundByteCount > 0 && !connection.isReadingPaused
        if framesReceived != framesAtLastSweep {
            framesAtLastSweep = framesReceived
            quietSince = now
            partialFrameSince = receiving ? now : nil
            return nil
        }
        if !receiving {
            partialFrameSince = nil
        } else if partialFrameSince == nil {
            partialFrameSince = now
        }
        if framesReceived == 0 {
            guard now - quietSince > limits.handshakeTimeout else { return nil }
            close(ServiceError(.deadlineExceeded, "no whole frame within \(limits.handshakeTimeout) of connecting"))
        } else if let partialFrameSince {
            guard now - partialFrameSince > limits.frameTimeout else { return nil }
            close(ServiceError(
                .deadlineExceeded,
                "a frame begun was not finished within \(limits.frameTimeout) (\(connection.bufferedInboundByteCount) bytes of it came)"))
        } else if inFlightCount == 0, !connection.isReadingPaused, now - quietSince <= limits.idleTimeout {
            return quietSince + limits.idleTimeout
        } else if inFlightCount == 0, now - quietSince > limits.idleTimeout {
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
