import VerticalsEventLoop

/// One server connection's lifecycle as a value: serving, draining with its host, or closing
/// after its last frame, and whether the host drains meanwhile. One `mutating` function per
/// event returns the ``Actions`` the ``ServerConnection`` performs (end its streams, hand the
/// connection over, tell the host a request ended, leave a request unread); nothing inside
/// touches the socket, a task or the host, so every state × event pair is a plain unit test
/// (`ServerConnectionStateMachineTests`).
///
/// Requests in flight are the connection's to count; events that depend on them take the count,
/// the request path's as an autoclosure, so a serving connection never counts.
struct ServerConnectionStateMachine: Sendable, Hashable {
    enum State: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Serves every request.
        case serving
        /// The host drains (SIGTERM): requests in flight finish, new ones are left unread, and
        /// once none is in flight the connection is handed over (closed with the retryable
        /// error marked unread, so its client sends them again to the next process).
        case draining
        /// Its last frame (an error saying why) is written: nothing more is served or answered.
        case closing
        /// As ``closing``, while the host drains: each request that ends still tells the host.
        case closingWhileDraining

        var description: String {
            switch self {
            case .serving: "serving"
            case .draining: "draining"
            case .closing: "closing"
            case .closingWhileDraining: "closingWhileDraining"
            }
        }
    }

    /// What the connection does after an event, in the order the members are listed.
    struct Actions: NamedActions, Sendable, Hashable {
        let rawValue: UInt8

        /// The request that arrived is not served: left unread for the next process, or dropped
        /// after the connection's last frame.
        static let leaveUnread = Actions(rawValue: 1 << 0)
        /// End every stream in flight with a retryable `unavailable`: a stream may never end by
        /// itself, and must not hold the drain until its timeout.
        static let endStreams = Actions(rawValue: 1 << 1)
        /// Close with the retryable error marked unread (``ServerConnection/closeIfDrained()``).
        static let handOver = Actions(rawValue: 1 << 2)
        /// Tell the host a request ended, so it can finish its drain.
        static let tellHost = Actions(rawValue: 1 << 3)

        static let names: [(Actions, String)] = [
            (.leaveUnread, "leaveUnread"), (.endStreams, "endStreams"), (.handOver, "handOver"),
            (.tellHost, "tellHost"),
        ]
    }

    private(set) var state: State

    init(hostIsDraining: Bool) {
        state = hostIsDraining ? .draining : .serving
    }

    /// Whether answers are still written: not once the last frame was.
    var answers: Bool { state == .serving || state == .draining }

    /// Whether the connection's last frame was written.
    var isClosing: Bool { state == .closing || state == .closingWhileDraining }

    /// Whether the host drains.
    var hostIsDraining: Bool { state == .draining || state == .closingWhileDraining }

    /// A request arrived with `inFlight` others in flight: served while serving; otherwise left
    /// unread, and a draining connection with nothing in flight is handed over.
    func requestArrived(inFlight: @autoclosure () -> Int) -> Actions {
        switch state {
        case .serving: []
        case .draining: inFlight() == 0 ? [.leaveUnread, .handOver] : .leaveUnread
        case .closing, .closingWhileDraining: .leaveUnread
        }
    }

    /// The host began draining, with `inFlight` requests in flight of which `streams` are
    /// streams: those end, and a connection left with nothing in flight is handed over at once.
    mutating func hostBeganDraining(inFlight: Int, streams: Int) -> Actions {
        switch state {
        case .serving:
            state = .draining
            return (streams > 0 ? Actions.endStreams : []).union(inFlight == streams ? .handOver : [])
        case .closing:
            state = .closingWhileDraining
            return []
        case .draining, .closingWhileDraining:
            return []
        }
    }

    /// A request ended (answered, cancelled or past its deadline), `remaining` still in flight:
    /// while the host drains it is told, and a draining connection with none left is handed over
    /// first.
    func requestEnded(remaining: @autoclosure () -> Int) -> Actions {
        switch state {
        case .serving, .closing: []
        case .draining: remaining() == 0 ? [.handOver, .tellHost] : .tellHost
        case .closingWhileDraining: .tellHost
        }
    }

    /// The connection writes its last frame and closes. True if it was not closing yet.
    mutating func closeRequested() -> Bool {
        switch state {
        case .serving: state = .closing
        case .draining: state = .closingWhileDraining
        case .closing, .closingWhileDraining: return false
        }
        return true
    }
}
