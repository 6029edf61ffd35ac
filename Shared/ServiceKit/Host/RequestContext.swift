import Logging
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsObservability

/// What a handler knows about the request it serves, besides its Input.
///
/// While a handler runs, ``current`` holds its context, so a call it makes to another
/// vertical carries the *remaining* deadline and the trace context without threading
/// them by hand.
///
/// A class, not a struct: a request's context is copied several times on its way (into its
/// task, its task-local, the handler), and a struct's copy retains each of its references
/// (the logger's among them) where a class's retains one.
public final class RequestContext: TracedRequest {
    /// `service.operation` being served.
    public let operation: String
    /// The caller's correlation id on its connection.
    public let correlationID: UInt64
    /// When the caller stops waiting, if it said.
    public let deadline: Deadline?
    /// The W3C trace context the caller sent.
    public let traceparent: String?
    /// The calling process's pid, uid and gid (`SO_PEERCRED`).
    public let peer: PeerCredentials?
    /// Who the caller is, as limits counted per caller key it: `uid N` on a Unix socket,
    /// `verticals://NAME` over mutual TLS, `address HOST` over plain TCP; nil when unknown.
    public let caller: String?
    /// Whether the caller is the operator, as the host decided when it admitted the connection
    /// (``CallerGrant/isOperator``: root, the daemon's own uid, the operator group, or the
    /// operator certificate): exactly whom an operation marked `OperationMark/operatorOnly`
    /// admits. A use case that must know asks this rather than re-deriving it from ``peer``.
    public let callerIsOperator: Bool
    /// The server span's place in its trace (nil when the daemon traces nothing,
    /// `VERTICALS_TRACING=off`). Log lines written while serving carry its ids (`LoggingBootstrap`).
    public let trace: TraceIdentity?
    /// The server span, made only when the trace is sampled.
    public let span: VerticalsSpan?
    /// A logger labelled with the operation and correlation id.
    ///
    /// Labelled when asked for, not per request: setting metadata on swift-log's stream
    /// handler re-renders all of it, which cost a served request more than its routing did.
    public var logger: Logger {
        var logger = baseLogger
        logger[metadataKey: "op"] = "\(operation)"
        logger[metadataKey: "id"] = "\(correlationID)"
        return logger
    }
    private let baseLogger: Logger
    /// Where a streaming operation's events go: the request's connection (nil in-process).
    let events: (any EventSink)?

    /// Creates a context (the host does; tests may too); `logger` is labelled on use (``logger``).
    public convenience init(
        operation: String, correlationID: UInt64 = 0, deadline: Deadline? = nil, traceparent: String? = nil,
        peer: PeerCredentials? = nil, caller: String? = nil, callerIsOperator: Bool = false,
        logger: Logger = Logger(label: "verticals")
    ) {
        self.init(
            operation: operation, correlationID: correlationID, deadline: deadline, traceparent: traceparent,
            peer: peer, caller: caller ?? peer.map { "uid \($0.uid)" }, callerIsOperator: callerIsOperator,
            logger: logger,
            events: nil)
    }

    /// Creates a context whose streaming operation sends its events to `events`.
    init(
        operation: String, correlationID: UInt64, deadline: Deadline?, traceparent: String?,
        peer: PeerCredentials?, caller: String?, callerIsOperator: Bool = false, logger: Logger,
        events: (any EventSink)?,
        trace: TraceIdentity? = nil, span: VerticalsSpan? = nil
    ) {
        self.caller = caller
        self.callerIsOperator = callerIsOperator
        self.trace = trace
        self.span = span
        self.operation = operation
        self.correlationID = correlationID
        self.deadline = deadline
        self.traceparent = traceparent
        self.peer = peer
        self.baseLogger = logger
        self.events = events
    }

    /// The context of the request served where this code runs, if any (`Serving/current`: the
    /// host binds it while a handler runs, in its task or, for `onSync`, on the loop's thread).
    public static var current: RequestContext? { Serving.current as? RequestContext }
}
