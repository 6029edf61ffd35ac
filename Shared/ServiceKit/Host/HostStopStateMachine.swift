import VerticalsEventLoop

/// A host's stop on one loop as a value: serving, draining (requests in flight finish), closing
/// its last connections, drained; and, on the accepting host, the shards still draining. One
/// `mutating` function per event returns the ``Actions`` the ``ServiceHost`` performs; nothing
/// inside touches a connection, a timer or a loop, so every state × event pair is a plain unit
/// test (`HostStopStateMachineTests`).
///
/// Whether every connection is idle is the host's to see: the machine asks for the look
/// (``Actions/finishIfIdle``), and the host answers with ``drainEnded(connectionsOpen:)``.
struct HostStopStateMachine: Sendable, Hashable {
    enum State: Sendable, Hashable, CaseIterable {
        /// Accepts and serves.
        case serving
        /// Accepts nothing more; requests in flight finish, up to the drain timeout.
        case draining
        /// The drain is over: the connections left close (one handed over lingers until its
        /// client read why, at most its grace).
        case closing
        /// This loop's last connection closed.
        case drained
    }

    /// What the host does after an event, in the order the members are listed.
    struct Actions: NamedActions, Sendable, Hashable {
        let rawValue: UInt8

        /// Stop accepting: tell each connection and shard to drain, close the listener, and on
        /// the accepting host arm the drain timeout.
        static let startDrain = Actions(rawValue: 1 << 0)
        /// Look whether every connection is idle; if so, the drain ends (``drainEnded(connectionsOpen:)``).
        static let finishIfIdle = Actions(rawValue: 1 << 1)
        /// Close every connection once flushed, stop the watchdog, the idle exit and the sweep.
        static let finishDrain = Actions(rawValue: 1 << 2)
        /// A shard's loop is drained: tell the accepting host.
        static let tellAcceptingHost = Actions(rawValue: 1 << 3)
        /// Every loop is drained, for the first time: cancel the drain timeout, close the
        /// timers, say it stopped.
        static let finishStop = Actions(rawValue: 1 << 5)
        /// Every loop is drained: the host's stop returns (again, for a stop asked afterwards).
        static let resumeStopWaiters = Actions(rawValue: 1 << 4)

        static let names: [(Actions, String)] = [
            (.startDrain, "startDrain"), (.finishIfIdle, "finishIfIdle"), (.finishDrain, "finishDrain"),
            (.tellAcceptingHost, "tellAcceptingHost"), (.finishStop, "finishStop"),
            (.resumeStopWaiters, "resumeStopWaiters"),
        ]
    }

    private(set) var state = State.serving
    /// Shards told to drain that have not finished (the accepting host's).
    private(set) var shardsDraining = 0
    /// A shard serves another loop for the accepting host, which its drain reports to.
    let isShard: Bool

    init(isShard: Bool) {
        self.isShard = isShard
    }

    /// Whether the host stopped accepting.
    var isDraining: Bool { state != .serving }

    /// Whether the drain is over on this loop: its connections close, or have.
    var hasDrained: Bool { state == .closing || state == .drained }

    /// ``ServiceHost/stop()`` was called: it returns at once when every loop is drained already;
    /// otherwise the drain begins (or goes on).
    mutating func stopRequested() -> Actions {
        if state == .drained, shardsDraining == 0 { return .resumeStopWaiters }
        return drainRequested()
    }

    /// Stop accepting and drain (SIGTERM, the idle exit, a stop): again while draining, just look.
    mutating func drainRequested() -> Actions {
        switch state {
        case .serving:
            state = .draining
            return [.startDrain, .finishIfIdle]
        case .draining: return .finishIfIdle
        case .closing, .drained: return []
        }
    }

    /// `count` shards were told to drain.
    mutating func shardsToldToDrain(_ count: Int) {
        shardsDraining += count
    }

    /// A request ended while draining: perhaps the last.
    func requestFinished() -> Actions {
        state == .draining ? .finishIfIdle : []
    }

    /// A connection closed, `remaining` open on this loop.
    mutating func connectionClosed(remaining: Int) -> Actions {
        switch state {
        case .serving, .drained: return []
        case .draining: return .finishIfIdle
        case .closing: return remaining == 0 ? drainedHere() : []
        }
    }

    /// The drain is over: nothing in flight on this loop, or the drain timeout passed (what is
    /// still in flight is abandoned). `connectionsOpen` on this loop are closed next.
    mutating func drainEnded(connectionsOpen: Int) -> Actions {
        guard state == .draining else { return [] }
        state = .closing
        return connectionsOpen == 0 ? Actions.finishDrain.union(drainedHere()) : .finishDrain
    }

    /// A shard finished draining (the accepting host's).
    mutating func shardDrained() -> Actions {
        guard shardsDraining > 0 else { return [] }
        shardsDraining -= 1
        return state == .drained && shardsDraining == 0 ? Self.stopped : []
    }

    /// This loop's last connection closed after the drain.
    private mutating func drainedHere() -> Actions {
        state = .drained
        if isShard { return .tellAcceptingHost }
        return shardsDraining == 0 ? Self.stopped : []
    }

    /// What ends the stop once every loop is drained.
    private static let stopped: Actions = [.finishStop, .resumeStopWaiters]
}
