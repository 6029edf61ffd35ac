/// The typed error codes every vertical answers with; an error frame carries one.
///
/// Codes are stable and few, after gRPC's: a caller branches on the code, and
/// reads the message only to show it. An unknown code from a newer peer decodes
/// as `unknown(raw)` and is treated as `internal`.
public enum ErrorCode: WireEnum {
    /// The input was malformed or broke a rule the caller can fix.
    case invalidInput
    /// No valid credentials were presented.
    case unauthenticated
    /// The caller is known but may not do this.
    case permissionDenied
    /// The thing named does not exist.
    case notFound
    /// The request conflicts with the current state (duplicate, overlap, full).
    case conflict
    /// The callee, or something it needs, is down; a retry may succeed.
    case unavailable
    /// The deadline passed before an answer was ready.
    case deadlineExceeded
    /// A limit was hit (connections, in-flight requests, memory, quota).
    case resourceExhausted
    /// The caller cancelled the request.
    case cancelled
    /// The operation is not known to this vertical.
    case unimplemented
    /// The bytes broke the wire protocol; the connection is closed after this.
    case protocolError
    /// A bug or an unexpected failure inside the callee.
    case `internal`
    /// A code this build does not know, kept as sent.
    case unknown(String)

    public static let knownCases: [ErrorCode] = [
        .invalidInput, .unauthenticated, .permissionDenied, .notFound, .conflict, .unavailable,
        .deadlineExceeded, .resourceExhausted, .cancelled, .unimplemented, .protocolError, .internal,
    ]

    public static let schema = EnumSchema("wire.ErrorCode", knownCases)

    public init(unknown raw: String) { self = .unknown(raw) }

    public var wireName: String {
        switch self {
        case .invalidInput: "invalidInput"
        case .unauthenticated: "unauthenticated"
        case .permissionDenied: "permissionDenied"
        case .notFound: "notFound"
        case .conflict: "conflict"
        case .unavailable: "unavailable"
        case .deadlineExceeded: "deadlineExceeded"
        case .resourceExhausted: "resourceExhausted"
        case .cancelled: "cancelled"
        case .unimplemented: "unimplemented"
        case .protocolError: "protocolError"
        case .internal: "internal"
        case .unknown(let raw): raw
        }
    }

    /// Whether the same request may succeed if sent again later, when the sender does not say.
    public var isRetryableByDefault: Bool {
        switch self {
        case .unavailable, .resourceExhausted: true
        default: false
        }
    }
}
