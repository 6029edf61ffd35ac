/// A ``PeerChannel``'s connection to its callee as a value: no connection, one being made, a wait
/// before connecting again, one asking the callee's contract, one whose answer is being judged,
/// one carrying calls, or the channel closed for good. Each state's data is in its case (the connection, what the contract check
/// expects, the backoff); one `mutating` function per event returns what the channel does next
/// (connect, write, hold a call, judge a check, send again, fail the calls waiting). Nothing inside
/// touches a socket, a timer or a call, so every state × event pair is a plain unit test
/// (`PeerChannelStateMachineTests`), with any class standing in for the connection.
///
/// An event the channel cannot send in a state (a connect's result with no connect in flight, a
/// call to a closed channel, which it refuses first) is a bug in the channel: it traps in debug
/// builds and changes nothing in release ones. What a peer does (a frame, a close, a handover) is
/// never impossible.
///
/// **Handovers are bounded.** A callee that closes a connection with `unread` = `all`
/// (PROTOCOL.md § 11) has the calls waiting on it sent again on a new connection, which asks the
/// contract again. A hostile or broken callee could do so for ever, each time costing a connection and a
/// contract check until the calls' deadlines. So at most ``handoverBudget`` connections in a row
/// are handed back before a call is answered; the next one fails the calls waiting
/// (``HandoverAction/giveUp``), and every later one too until a call is answered.
///
/// ```swift
/// var machine = PeerChannelStateMachine<Connection>()
/// machine.callQueued()                                      // .connect
/// machine.connected(link, trusted: true, expected: nil)     // .sendWaiting, state .connected(link)
/// machine.callQueued()                                      // .write(link)
/// machine.handedOver(link, callsPending: true)              // .resend, state .connecting
/// ```
struct PeerChannelStateMachine<Link: AnyObject> {
    /// Where the channel's connection is.
    enum State {
        /// No connection: the next call connects.
        case idle
        /// A connect is in flight; calls wait for it. `backoff` is the wait before trying again
        /// should the callee's backlog be full.
        case connecting(backoff: Duration)
        /// The callee's backlog was full: a timer connects again, after which a full backlog
        /// waits `backoff`. Calls wait.
        case waitingToConnect(backoff: Duration)
        /// Connected, and waiting for the callee's answer to `daemon.contractCheck` before any call
        /// is sent (``CalleeContracts``).
        case checking(Link, CalleeContracts.Expected)
        /// The callee answered the contract check on the connection; the answer is being judged
        /// (off the loop when the description differs, ``CalleeContracts``). Calls still wait, so
        /// none goes out before what the callee refuses is known.
        case judging(Link)
        /// Connected: calls are written at once.
        case connected(Link)
        /// ``PeerChannel/close()`` was called: every call fails, and a connection made after is
        /// closed at once.
        case closed
    }

    /// What the channel does with a new call.
    enum CallAction {
        /// Write its request on the connection.
        case write(Link)
        /// Keep it until the connection is ready.
        case hold
        /// Keep it, and connect.
        case connect
    }

    /// What the channel does with a connection just made.
    enum ConnectedAction {
        /// Send the contract check, and hold the calls until its answer.
        case askContract(CalleeContracts.Expected)
        /// Send the calls that waited.
        case sendWaiting
        /// Close it unused, and fail the calls that waited: its listener is not the callee meant.
        case refuseListener
        /// Close it: the channel is closed.
        case close
    }

    /// What the channel does after a connect failed.
    enum ConnectFailedAction: Equatable {
        /// Connect again after the wait, from a timer.
        case retry(after: Duration)
        /// Fail the calls waiting with the failure.
        case failCalls
        /// Nothing: the channel is closed.
        case nothing
    }

    /// What the channel does when the callee hands a connection back with every call unread.
    enum HandoverAction: Equatable {
        /// Close it, and send every pending call again on a new connection.
        case resend
        /// Close it, and fail every pending call: the callee handed back ``handoverBudget``
        /// connections in a row already.
        case giveUp
        /// Close it: nothing waits on it, or it is no longer the channel's.
        case close
    }

    /// The first wait before connecting again after a full backlog (`EAGAIN`); it doubles up to
    /// ``maxBackoff``, and starts over once a connect ends otherwise.
    static var firstBackoff: Duration { .milliseconds(2) }
    /// The longest wait between two connects to a full backlog.
    static var maxBackoff: Duration { .milliseconds(100) }
    /// The connections handed back in a row, with no call answered in between, whose calls are
    /// sent again: enough for a callee's process to be replaced a few times over (a restart, an
    /// upgrade, an on-demand vertical's idle exit), few enough that a callee doing it on purpose
    /// costs its caller at most this many more connections and contract checks per answered call.
    static var handoverBudget: Int { 3 }

    private(set) var state = State.idle
    /// Connections handed back in a row since a call was last answered: spans connections, so it
    /// is the machine's, not a state's.
    private(set) var handoversInARow = 0

    // MARK: What the state allows

    /// Whether calls are taken: not once closed.
    var takesCalls: Bool {
        if case .closed = state { false } else { true }
    }

    /// The connection that carries calls now, if any (a cancel goes only there).
    var connectedLink: Link? {
        if case .connected(let link) = state { link } else { nil }
    }

    /// The connection the channel has, checking or connected.
    private var currentLink: Link? {
        switch state {
        case .checking(let link, _), .judging(let link), .connected(let link): link
        case .idle, .connecting, .waitingToConnect, .closed: nil
        }
    }

    // MARK: Events

    /// A call is to be sent; the channel refuses calls itself once closed (``takesCalls``).
    mutating func callQueued() -> CallAction {
        switch state {
        case .idle:
            state = .connecting(backoff: Self.firstBackoff)
            return .connect
        case .connected(let link):
            return .write(link)
        case .connecting, .waitingToConnect, .checking, .judging:
            return .hold
        case .closed:
            Self.impossible("a call queued", state)
            return .hold
        }
    }

    /// The connect succeeded with `link`: `trusted` when its listener is the callee meant;
    /// `expected` is what to ask its contract for (nil: nothing to ask).
    mutating func connected(_ link: Link, trusted: Bool, expected: CalleeContracts.Expected?) -> ConnectedAction {
        switch state {
        case .connecting:
            guard trusted else {
                state = .idle
                return .refuseListener
            }
            guard let expected else {
                state = .connected(link)
                return .sendWaiting
            }
            state = .checking(link, expected)
            return .askContract(expected)
        case .closed:
            return .close
        case .idle, .waitingToConnect, .checking, .judging, .connected:
            Self.impossible("a connect succeeded", state)
            return .close
        }
    }

    /// The connect failed: `backlogFull` when the callee is alive but slow to accept (a transient
    /// error), which is tried again while `callsWaiting`; any other failure fails them.
    mutating func connectFailed(backlogFull: Bool, callsWaiting: Bool) -> ConnectFailedAction {
        switch state {
        case .connecting(let backoff):
            guard backlogFull, callsWaiting else {
                state = .idle
                return .failCalls
            }
            state = .waitingToConnect(backoff: min(backoff * 2, Self.maxBackoff))
            return .retry(after: backoff)
        case .closed:
            return .nothing
        case .idle, .waitingToConnect, .checking, .judging, .connected:
            Self.impossible("a connect failed", state)
            return .nothing
        }
    }

    /// The wait after a full backlog is over: true to connect again, while calls wait.
    mutating func retryDue(callsWaiting: Bool) -> Bool {
        switch state {
        case .waitingToConnect(let backoff):
            state = callsWaiting ? .connecting(backoff: backoff) : .idle
            return callsWaiting
        case .closed:
            return false
        case .idle, .connecting, .checking, .judging, .connected:
            Self.impossible("a retry came due", state)
            return false
        }
    }

    /// A frame with the contract check's id arrived on `link`: what the check expected, when it is
    /// the answer the channel waits for (to be judged; the calls wait for ``checkJudged(on:)``);
    /// nil when it is not (a frame like any other: a second answer is not judged again).
    mutating func checkAnswered(on link: Link) -> CalleeContracts.Expected? {
        guard case .checking(let current, let expected) = state, current === link else { return nil }
        state = .judging(link)
        return expected
    }

    /// The answer to the contract check on `link` is judged: true when `link` is still the
    /// channel's and the calls that waited go out now; false when the channel moved on (that
    /// connection closed or was handed back while the answer was judged).
    mutating func checkJudged(on link: Link) -> Bool {
        guard case .judging(let current) = state, current === link else { return false }
        state = .connected(link)
        return true
    }

    /// The callee closes `link` having read none of the calls pending on it (an error on id 0
    /// with `unread` = `all`); `callsPending` says whether any wait.
    mutating func handedOver(_ link: Link, callsPending: Bool) -> HandoverAction {
        guard currentLink === link else { return .close }
        state = .idle
        guard callsPending else { return .close }
        guard handoversInARow < Self.handoverBudget else { return .giveUp }
        handoversInARow += 1
        state = .connecting(backoff: Self.firstBackoff)
        return .resend
    }

    /// The callee answered a call that was waiting: the handover budget starts over.
    mutating func callAnswered() {
        handoversInARow = 0
    }

    /// `link` closed: true when it was the channel's connection (now gone: the next call connects).
    mutating func connectionClosed(_ link: Link) -> Bool {
        guard currentLink === link else { return false }
        state = .idle
        return true
    }

    /// ``PeerChannel/close()``: closed for good. Returns the connection to close, if there is one.
    mutating func closeRequested() -> Link? {
        let link = currentLink
        state = .closed
        return link
    }

    /// An event the channel never sends in `state`: a bug in the channel.
    private static func impossible(_ event: String, _ state: State) {
        assertionFailure("PeerChannelStateMachine: \(event) in state \(state)")
    }
}
