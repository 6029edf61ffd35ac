/// What a frame is: the second byte of every envelope.
public enum MessageKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// A call: the body is the operation's Input.
    case request = 1
    /// The successful answer to a request (or the end of a stream): the body is the Output.
    case response = 2
    /// The failed answer to a request, or a connection-level error (correlation id 0): the body is a ``ServiceError`` (`wire.Error`).
    case error = 3
    /// One item of a stream answering a request; more follow until a response, error or cancel.
    case event = 4
    /// The caller gives up on a request; the callee stops work and need not answer.
    case cancel = 5
    /// A liveness probe; answered by a `pong` with the same correlation id.
    case ping = 6
    /// The answer to a `ping`.
    case pong = 7

    public var description: String {
        switch self {
        case .request: "request"
        case .response: "response"
        case .error: "error"
        case .event: "event"
        case .cancel: "cancel"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}
