import Testing

@testable import VerticalsEventLoop

/// A connection's state without a socket: every lifecycle state × event pair of
/// ``ConnectionStateMachine``, then every combination of reading's reasons × the events that
/// change them, with the next state and the actions the connection is asked to perform.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    typealias State = Machine.State
    typealias Actions = Machine.Actions
    typealias Inbound = Machine.Inbound

    static let options = ConnectionOptions(highWaterMark: 1_000, lowWaterMark: 100)

    /// One event, with the parameters the tables use.
    enum Event: String, CaseIterable, Sendable, CustomStringConvertible {
        case connected, startReading, framesDelivered, handshakeBegan, handshakeEnded, framingFailed
        case queuedPastHighWater, writeQueued, writeFinished, drainedToLowWater
        case flushRequested, flushStarted, endOfStream, closeRequested, closed

        var description: String { rawValue }

        /// Feeds the event to `machine`. The two events that answer a Bool (``connected`` and
        /// ``closeRequested``) answer no actions; their Bool is checked against the state change.
        func send(to machine: inout Machine) -> (actions: Actions, accepted: Bool?) {
            switch self {
            case .connected: return ([], machine.connected())
            case .startReading: return (machine.startReading(), nil)
            case .framesDelivered: return (machine.framesDelivered(), nil)
            case .handshakeBegan: return (machine.handshakeBegan(), nil)
            case .handshakeEnded: return (machine.handshakeEnded(), nil)
            case .framingFailed: return (machine.framingFailed(), nil)
            case .queuedPastHighWater: return (machine.queued(options.highWaterMark + 1), nil)
            case .writeQueued: return (machine.writeQueued(1), nil)
            case .writeFinished: return (machine.writeFinished(1), nil)
            case .drainedToLowWater: return (machine.drained(max(0, machine.queuedBytes - options.lowWaterMark)), nil)
            case .flushRequested: return (machine.flushRequested(), nil)
            case .flushStarted: return (machine.flushStarted(), nil)
            case .endOfStream: return (machine.endOfStream(), nil)
            case .closeRequested: return ([], machine.closeRequested())
            case .closed:
                machine.closed()
                return ([], nil)
            }
        }
    }

    // MARK: The lifecycle

    /// A machine in `state` as a connection gets there: an open one reads for its owner, and every
    /// one but a connecting one has one write of one byte queued in libuv.
    static func machine(in state: State) -> Machine {
        var machine = Machine(state == .connecting ? .connecting : .open, options: options)
        guard state != .connecting else { return machine }
        _ = machine.startReading()
        _ = machine.framesDelivered()
        _ = machine.writeQueued(1)
        if state >= .flushing { _ = machine.flushRequested() }
        if state >= .closing { _ = machine.closeRequested() }
        if state == .closed { machine.closed() }
        return machine
    }

    struct Outcome: Sendable, Equatable, CustomStringConvertible {
        let state: State
        let actions: Actions
        var description: String { "\(state) \(actions)" }
    }

    /// Every pair that changes something, from ``machine(in:)``. Every pair not listed must leave
    /// the lifecycle as it was and ask for nothing.
    static let lifecycle: [Event: [State: Outcome]] = [
        .connected: [.connecting: Outcome(state: .open, actions: [])],
        .startReading: [:], // the open machine reads already; a connecting one cannot yet
        .framesDelivered: [:],
        .handshakeBegan: [:], // reading runs for the owner already
        .framingFailed: [.open: Outcome(state: .open, actions: .stopReading)],
        .queuedPastHighWater: [.open: Outcome(state: .open, actions: .stopReading)],
        .writeFinished: [.flushing: Outcome(state: .flushing, actions: .close)],
        .flushRequested: [.open: Outcome(state: .flushing, actions: [.stopReading, .flushCorked])],
        .flushStarted: [.flushing: Outcome(state: .flushing, actions: .armFlushDeadline)],
        .endOfStream: [
            .connecting: Outcome(state: .connecting, actions: .close),
            .open: Outcome(state: .flushing, actions: [.stopReading, .flushCorked]),
            .flushing: Outcome(state: .flushing, actions: .close),
        ],
        .closeRequested: [
            .connecting: Outcome(state: .closing, actions: []),
            .open: Outcome(state: .closing, actions: []),
            .flushing: Outcome(state: .closing, actions: []),
        ],
        .closed: [.closing: Outcome(state: .closed, actions: [])],
    ]

    @Test(arguments: Event.allCases)
    func lifecycle(_ event: Event) {
        for state in State.allCases {
            var machine = Self.machine(in: state)
            let (actions, accepted) = event.send(to: &machine)
            let expected = Self.lifecycle[event]?[state] ?? Outcome(state: state, actions: [])
            #expect(Outcome(state: machine.state, actions: actions) == expected, "\(event) in \(state)")
            if let accepted {
                #expect(accepted == (machine.state != state), "\(event) in \(state) answers whether it was taken")
            }
        }
    }

    @Test func onlyAnOpenConnectionTakesWrites_andOnlyAnOpenOrFlushingOneSends() {
        for state in State.allCases {
            let machine = Self.machine(in: state)
            #expect(machine.acceptsWrites == (state == .open), "\(state)")
            #expect(machine.isConnected == (state == .open || state == .flushing), "\(state)")
            #expect(machine.deliversFrames == (state == .open), "\(state)")
        }
    }

    // MARK: Reading's reasons

    /// All sixteen combinations of reading's four reasons.
    static let everyInbound: [Inbound] = (0..<16).map { bits in
        Inbound(wanted: bits & 1 != 0, handshaking: bits & 2 != 0, paused: bits & 4 != 0, broken: bits & 8 != 0)
    }

    /// An open machine whose reasons are `inbound`, with libuv reading as they say, reached by events only.
    static func machine(reading inbound: Inbound) -> Machine {
        var machine = Machine(.open, options: options)
        if inbound.handshaking { _ = machine.handshakeBegan() }
        if inbound.wanted {
            _ = machine.startReading()
            _ = machine.framesDelivered()
        }
        if inbound.paused { _ = machine.queued(options.highWaterMark + 1) }
        if inbound.broken { _ = machine.framingFailed() }
        precondition(machine.inbound == inbound)
        return machine
    }

    /// Whether libuv reads with these reasons, as the connection documents it: for the owner or
    /// the handshake, unless backpressure holds or framing broke.
    static func reads(_ inbound: Inbound) -> Bool {
        (inbound.wanted || inbound.handshaking) && !inbound.paused && !inbound.broken
    }

    /// What each reading event does to the reasons, and what it asks for besides starting or
    /// stopping libuv's reading.
    static func expected(_ event: Event, from inbound: Inbound) -> (inbound: Inbound, besides: Actions)? {
        var next = inbound
        switch event {
        case .startReading:
            guard !inbound.wanted else { return (next, []) }
            next.wanted = true
            return (next, .deliverFrames) // reading itself starts after delivery (framesDelivered)
        case .framesDelivered: return (next, [])
        case .handshakeBegan: next.handshaking = true
        case .handshakeEnded: next.handshaking = false
        case .framingFailed: next.broken = true
        case .queuedPastHighWater: next.paused = true
        case .drainedToLowWater:
            guard inbound.paused else { return (next, []) }
            next.paused = false
            return (next, .deliverFrames)
        default: return nil
        }
        return (next, [])
    }

    @Test(arguments: Event.allCases)
    func reading(_ event: Event) {
        for inbound in Self.everyInbound {
            guard let (next, besides) = Self.expected(event, from: inbound) else { return }
            var machine = Self.machine(reading: inbound)
            let (actions, _) = event.send(to: &machine)
            #expect(machine.inbound == next, "\(event) from \(inbound)")
            #expect(machine.state == .open, "\(event) from \(inbound)")
            // Starting is asked for only when reading did not run and should now, stopping only
            // the other way; delivery defers the decision to framesDelivered.
            var reading: Actions = []
            if !besides.contains(.deliverFrames) {
                if Self.reads(next), !Self.reads(inbound) { reading = .startReading }
                if !Self.reads(next), Self.reads(inbound) { reading = .stopReading }
            }
            #expect(actions == reading.union(besides), "\(event) from \(inbound)")
            #expect(
                machine.isReadStarted == (besides.contains(.deliverFrames) ? Self.reads(inbound) : Self.reads(next)))
            #expect(machine.deliversFrames == (!next.paused && !next.broken), "\(event) from \(inbound)")
        }
    }

    // MARK: Backpressure's counts

    @Test func backpressure_pausesPastTheHighWaterMark_andResumesOnlyAtTheLowOne() {
        var machine = Self.machine(reading: Inbound(wanted: true))
        var answer = machine.queued(1_000)
        #expect(answer == []) // at the mark, not past it
        answer = machine.queued(1)
        #expect(answer == .stopReading)
        answer = machine.queued(5_000)
        #expect(answer == []) // paused already
        machine.handedOver(5_001) // the kernel took the turn's bytes but one write's worth
        #expect(machine.queuedBytes == 1_000)
        answer = machine.drained(899)
        #expect(answer == []) // 101 left: above the low-water mark
        answer = machine.drained(1)
        #expect(answer == .deliverFrames) // 100: at it
        answer = machine.framesDelivered()
        #expect(answer == .startReading)
        #expect(machine.queuedBytes == 100)
    }

    @Test func aConnectionThatDoesNotPause_neverStopsReadingForItsQueue() {
        var machine = Machine(.open, options: ConnectionOptions(pausesReadingPastHighWater: false))
        _ = machine.startReading()
        var answer = machine.framesDelivered()
        #expect(answer == .startReading)
        answer = machine.queued(1 << 30)
        #expect(answer == [])
        #expect(!machine.inbound.paused)
    }

    @Test func aHandlerThatPausesWhileFramesAreDelivered_keepsReadingStopped() {
        var machine = Self.machine(reading: Inbound(wanted: true, paused: true))
        var answer = machine.drained(machine.queuedBytes)
        #expect(answer == .deliverFrames)
        // A frame's handler writes past the high-water mark again before delivery ends.
        answer = machine.queued(2_000)
        #expect(answer == [])
        answer = machine.framesDelivered()
        #expect(answer == [])
        #expect(!machine.isReadStarted)
    }

    @Test func flushing_closesWhenTheLastQueuedWriteFinishes() {
        var machine = Self.machine(in: .open)
        var answer = machine.writeQueued(10)
        #expect(answer == []) // a second write
        answer = machine.flushRequested()
        #expect(answer == [.stopReading, .flushCorked])
        answer = machine.flushStarted()
        #expect(answer == .armFlushDeadline)
        answer = machine.writeFinished(10)
        #expect(answer == []) // one left
        answer = machine.writeFinished(1)
        #expect(answer == .close)
        #expect(machine.queuedBytes == 0)
        let closing = machine.closeRequested()
        let again = machine.closeRequested()
        #expect(closing && !again) // once
    }
}
