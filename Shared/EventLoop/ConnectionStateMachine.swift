/// A connection's state as a value: where it is in its life, what reading needs and whether
/// libuv reads, and the outbound bytes backpressure counts. One `mutating` function per event
/// returns the ``Actions`` the ``Connection`` performs (start or stop libuv's reading, deliver
/// buffered frames, send what this turn corked, arm the flush deadline, close the handle);
/// nothing inside touches libuv, a timer or a handler, so every state × event pair is a plain
/// unit test (`ConnectionStateMachineTests`). After swift-nio's channel handlers, whose state
/// machines take an event and answer what to do.
///
/// An event that does not fit the state (bytes drained after a close, a second close, reading
/// asked for while flushing) is answered with no actions and leaves the lifecycle as it was: the
/// peer and the owner may do anything at any time, so no event traps.
///
/// ```swift
/// var machine = ConnectionStateMachine(.open, options: options)
/// machine.startReading()             // [.deliverFrames]: what arrived before
/// machine.framesDelivered()          // [.startReading]
/// machine.queued(2 << 20)            // [.stopReading]: past the high-water mark
/// machine.handedOver(2 << 20)        // the kernel took the bytes
/// machine.drained(0)                 // [.deliverFrames]: below the low-water mark
/// machine.framesDelivered()          // [.startReading]
/// machine.flushRequested()           // [.stopReading, .flushCorked], state .flushing
/// machine.flushStarted()             // [.close]: nothing left queued
/// ```
struct ConnectionStateMachine: Sendable, Hashable {
    /// The lifecycle. Ordered: from ``closing`` on, the connection sends and receives nothing.
    enum State: Sendable, Hashable, Comparable, CaseIterable {
        /// A connect is in flight; nothing is read or written.
        case connecting
        /// Reads (as ``Inbound`` allows) and writes.
        case open
        /// ``Connection/closeAfterFlush()``: no more reading or new writes; what is queued drains,
        /// then the handle closes.
        case flushing
        /// `uv_close` was called; its callback has not run yet.
        case closing
        /// The close callback ran: the handle's memory is gone.
        case closed
    }

    /// What reading needs while open. Each part is a reason of its own, so a combination is a
    /// state; the table tests take all sixteen.
    struct Inbound: Sendable, Hashable {
        /// The owner called ``Connection/startReading()``: it wants frames.
        var wanted = false
        /// A TLS handshake runs: reading runs for it, frames are not delivered yet.
        var handshaking = false
        /// Backpressure: the outbound queue passed the high-water mark and has not yet drained to
        /// the low-water mark.
        var paused = false
        /// The peer broke framing: nothing is read or delivered again.
        var broken = false
    }

    /// What the connection does after an event, in the order the members are listed. Two are
    /// followed by an event of their own, since what comes next depends on what they did:
    /// ``deliverFrames`` by ``framesDelivered()`` (a handler may pause or close), ``flushCorked``
    /// by ``flushStarted()`` (the kernel may take everything).
    struct Actions: NamedActions, Sendable, Hashable {
        let rawValue: UInt8

        /// `uv_read_stop`.
        static let stopReading = Actions(rawValue: 1 << 0)
        /// Hand the owner the whole frames already buffered.
        static let deliverFrames = Actions(rawValue: 1 << 1)
        /// `uv_read_start`.
        static let startReading = Actions(rawValue: 1 << 2)
        /// Send what this turn's writes corked.
        static let flushCorked = Actions(rawValue: 1 << 3)
        /// Arm the deadline after which a flushing connection closes anyway.
        static let armFlushDeadline = Actions(rawValue: 1 << 4)
        /// Close the handle (``Connection/beginClose(error:)``).
        static let close = Actions(rawValue: 1 << 5)

        static let names: [(Actions, String)] = [
            (.stopReading, "stopReading"), (.deliverFrames, "deliverFrames"), (.startReading, "startReading"),
            (.flushCorked, "flushCorked"), (.armFlushDeadline, "armFlushDeadline"), (.close, "close"),
        ]
    }

    private(set) var state: State
    private(set) var inbound = Inbound()
    /// Whether libuv reads now: what the last ``Actions/startReading`` or ``Actions/stopReading`` left.
    private(set) var isReadStarted = false
    /// Bytes handed to a write that the kernel has not taken yet (corked or queued in libuv).
    private(set) var queuedBytes = 0
    /// Writes queued in libuv whose callback has not run.
    private(set) var pendingWrites = 0
    private let highWaterMark: Int
    private let lowWaterMark: Int
    private let pausesReadingPastHighWater: Bool

    init(_ state: State, options: ConnectionOptions) {
        self.state = state
        self.highWaterMark = options.highWaterMark
        self.lowWaterMark = options.lowWaterMark
        self.pausesReadingPastHighWater = options.pausesReadingPastHighWater
    }

    // MARK: What the state allows

    /// Whether a new write is taken.
    var acceptsWrites: Bool { state == .open }

    /// Whether bytes still go out and come in (TLS records, queued writes): open or flushing.
    var isConnected: Bool { state == .open || state == .flushing }

    /// Whether the next buffered frame may be handed out.
    var deliversFrames: Bool { state == .open && !inbound.paused && !inbound.broken }

    /// Whether the owner asked for frames.
    var wantsFrames: Bool { inbound.wanted }

    /// Whether libuv should read: for the owner or the handshake, while open, neither paused nor broken.
    private var shouldRead: Bool {
        (inbound.wanted || inbound.handshaking) && state == .open && !inbound.paused && !inbound.broken
    }

    /// Starts or stops libuv's reading to match ``shouldRead``. Once closing, `uv_close` stops it.
    private mutating func reconcileReading() -> Actions {
        if shouldRead, !isReadStarted {
            isReadStarted = true
            return .startReading
        }
        if !shouldRead, isReadStarted, state < .closing {
            isReadStarted = false
            return .stopReading
        }
        return []
    }

    // MARK: Events

    /// The connect succeeded. True if the connection was waiting for it (and is open now); false
    /// if it closed meanwhile.
    mutating func connected() -> Bool {
        guard state == .connecting else { return false }
        state = .open
        return true
    }

    /// The owner wants frames: reading starts, and frames that arrived before (with the end of a
    /// TLS handshake) are delivered. Once only, and only while open.
    mutating func startReading() -> Actions {
        guard state == .open, !inbound.wanted else { return [] }
        inbound.wanted = true
        return .deliverFrames
    }

    /// The buffered frames were delivered: reading starts or stops as the handlers left things
    /// (they may have written past the high-water mark, or closed).
    mutating func framesDelivered() -> Actions {
        reconcileReading()
    }

    /// A TLS handshake began: reading runs for it.
    mutating func handshakeBegan() -> Actions {
        guard state == .open else { return [] }
        inbound.handshaking = true
        return reconcileReading()
    }

    /// The handshake finished (or failed): reading runs on only if the owner wants frames.
    mutating func handshakeEnded() -> Actions {
        guard inbound.handshaking else { return [] }
        inbound.handshaking = false
        return reconcileReading()
    }

    /// The peer broke framing: reading stops for good.
    mutating func framingFailed() -> Actions {
        guard !inbound.broken else { return [] }
        inbound.broken = true
        return reconcileReading()
    }

    /// `bytes` more wait for the kernel (corked, or left over by a write and queued in libuv):
    /// past the high-water mark, a connection that pauses stops reading.
    mutating func queued(_ bytes: Int) -> Actions {
        queuedBytes += bytes
        guard pausesReadingPastHighWater, !inbound.paused, queuedBytes > highWaterMark else { return [] }
        inbound.paused = true
        return reconcileReading()
    }

    /// Corked bytes go to the socket now; what the kernel leaves is ``queued(_:)`` again.
    mutating func handedOver(_ bytes: Int) {
        queuedBytes -= bytes
    }

    /// A write was queued in libuv with `bytes` the kernel did not take.
    mutating func writeQueued(_ bytes: Int) -> Actions {
        pendingWrites += 1
        return queued(bytes)
    }

    /// A queued write's callback ran: its `bytes` left the queue.
    mutating func writeFinished(_ bytes: Int) -> Actions {
        guard pendingWrites > 0 else { return [] }
        pendingWrites -= 1
        return drained(bytes)
    }

    /// `bytes` left the queue: an open connection paused by backpressure resumes at the low-water
    /// mark (frames decoded while paused first); a flushing one with no write left closes.
    mutating func drained(_ bytes: Int) -> Actions {
        queuedBytes -= bytes
        switch state {
        case .open where inbound.paused && queuedBytes <= lowWaterMark:
            inbound.paused = false
            return .deliverFrames
        case .flushing where pendingWrites == 0:
            return .close
        default:
            return []
        }
    }

    /// ``Connection/closeAfterFlush()``: an open connection stops reading and sends what it corked;
    /// ``flushStarted()`` then says whether anything is left to wait for.
    mutating func flushRequested() -> Actions {
        guard state == .open else { return [] }
        state = .flushing
        return reconcileReading().union(.flushCorked)
    }

    /// What this turn corked went out: close now if no write waits in libuv, else wait for them,
    /// bounded by the flush deadline. Nothing if the connection is no longer flushing.
    mutating func flushStarted() -> Actions {
        guard state == .flushing else { return [] }
        return pendingWrites == 0 ? .close : .armFlushDeadline
    }

    /// The peer finished sending (it may still read, a half-close): an open connection flushes
    /// what is queued; a connecting or flushing one closes.
    mutating func endOfStream() -> Actions {
        switch state {
        case .open: flushRequested()
        case .connecting, .flushing: .close
        case .closing, .closed: []
        }
    }

    /// The one way to closing. True if the connection was not closing yet: the caller tears down
    /// (corked bytes dropped, timers stopped, `uv_close`).
    mutating func closeRequested() -> Bool {
        guard state < .closing else { return false }
        state = .closing
        return true
    }

    /// Corked bytes were dropped on closing.
    mutating func dropped(_ bytes: Int) {
        queuedBytes -= bytes
    }

    /// libuv's close callback ran.
    mutating func closed() {
        guard state == .closing else { return }
        state = .closed
    }
}
