import VerticalsClient

/// One server connection's timeout clocks as a value: when it arrived or last went quiet, and
/// since when part of a frame has waited for the rest. The host's sweep hands it what it sees at
/// each look (``look(now:receiving:inFlight:readingPaused:limits:)``) and gets a ``Verdict``
/// back; nothing inside reads a clock or the socket, so every clock × observation pair is a
/// plain unit test (`ConnectionTimeoutsTests`).
///
/// The sweep sees state only when it looks, so each clock starts at the first look that finds
/// its condition: a timeout fires between its duration and its duration plus a sweep interval
/// late, never early.
struct ConnectionTimeouts: Sendable, Hashable {
    /// Which timeout ran out.
    enum Timeout: Sendable, Hashable {
        /// No whole frame within ``ConnectionLimits/handshakeTimeout`` of connecting.
        case handshake
        /// A frame begun was not finished within ``ConnectionLimits/frameTimeout``.
        case frame
        /// Nothing in flight and no frame for ``ConnectionLimits/idleTimeout``.
        case idle
    }

    /// What a look found.
    enum Verdict: Sendable, Hashable {
        /// Something moves (a frame since the last look, a request in flight, a frame arriving):
        /// the connection needs regular looks.
        case watch
        /// Nothing will change before `until`, when the idle timeout falls due: the sweep may
        /// rest until then.
        case settled(until: MonotonicInstant)
        /// Close the connection.
        case expired(Timeout)
    }

    /// Whole frames received, counted on the request path (one add a frame).
    private(set) var frames: UInt64 = 0
    /// ``frames`` at the last look (or the last frame while the sweep rested).
    private(set) var framesAtLastLook: UInt64 = 0
    /// When the connection arrived, or the last look that saw a frame come.
    private(set) var quietSince: MonotonicInstant
    /// When a look first found part of a frame waiting for the rest, if one does now.
    private(set) var partialFrameSince: MonotonicInstant?

    init(arrived: MonotonicInstant) {
        quietSince = arrived
    }

    /// A whole frame came.
    mutating func frameReceived() {
        frames &+= 1
    }

    /// A frame came while the sweep rests: what its next look would record, now, so the idle
    /// clock restarts without waking it (it then finds the deadline moved on).
    mutating func frameWhileSweepRests(now: MonotonicInstant) {
        framesAtLastLook = frames
        quietSince = now
        partialFrameSince = nil
    }

    /// A look of the sweep: `receiving` when bytes of a frame still arriving are buffered (not
    /// whole frames held back by backpressure), `inFlight` the requests running, `readingPaused`
    /// whether backpressure holds reading.
    mutating func look(
        now: MonotonicInstant, receiving: Bool, inFlight: Int, readingPaused: Bool, limits: ConnectionLimits
    ) -> Verdict {
        if frames != framesAtLastLook {
            framesAtLastLook = frames
            quietSince = now
            partialFrameSince = receiving ? now : nil
            return .watch
        }
        if !receiving {
            partialFrameSince = nil
        } else if partialFrameSince == nil {
            partialFrameSince = now
        }
        if frames == 0 {
            return now - quietSince > limits.handshakeTimeout ? .expired(.handshake) : .watch
        }
        if let partialFrameSince {
            return now - partialFrameSince > limits.frameTimeout ? .expired(.frame) : .watch
        }
        guard inFlight == 0 else { return .watch }
        if now - quietSince > limits.idleTimeout { return .expired(.idle) }
        // A paused connection waits for its peer to read: it needs looks, so it is not settled.
        return readingPaused ? .watch : .settled(until: quietSince + limits.idleTimeout)
    }
}
