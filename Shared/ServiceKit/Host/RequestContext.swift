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
/// A value: the host makes none on the heap per request. What its connection knows (the peer,
/// the caller, the logger) sits behind one object the connection made once, so a copy retains
/// that object and the request's own strings, not each of those facts. A handler may keep a
/// copy for as long as it likes, and send it to another task or thread.
public struct RequestContext: Sendable {
    /// `service.operation` being served.
    public let operation: String
    /// The caller's correlation id on its connection.
    public let correlationID: UInt64
    /// When the caller stops waiting, if it said.
    public let deadline: Deadline?
    /// The W3C trace context the caller sent.
    public let traceparent: String?
    /// The server span's place in its trace (nil when the daemon traces nothing,
    /// `VERTICALS_TRACING=off`). Log lines written while serving carry its ids (`LoggingBootstrap`).
    public let trace: TraceIdentity?
    /// The server span, made only when the trace is sampled.
    public let span: VerticalsSpan?
    /// What the request's connection knows of its caller, shared by its requests.
    let connection: ConnectionFacts

    /// The calling process's pid, uid and gid (`SO_PEERCRED`).
    public var peer: PeerCredentials? { connection.peer }
    /// Who the caller is, as limits counted per caller key it: `uid N` on a Unix socket,
    /// `verticals://NAME` over mutual TLS, `address HOST` over plain TCP; nil when unknown.
    public var caller: String? { connection.caller }
    /// Whether the caller is the operator, as the host decided when it admitted the connection
    /// (``CallerGrant/isOperator``: root, the daemon's own uid, the operator group, or the
    /// operator certificate): exactly whom an operation marked `OperationMark/operatorOnly`
    /// admits. A use case that must know asks this rather than re-deriving it from ``peer``.
    public var callerIsOperator: Bool { connection.callerIsOperator }
    /// A logger labelled with the operation and correlation id.
    ///
    /// Labelled when asked for, not per request: setting metadata on swift-log's stream
    /// handler re-renders all of it, which cost a served request more than its routing did.
    public var logger: Logger {
        var logger = connection.logger
        logger[metadataKey: "op"] = "\(operation)"
        logger[metadataKey: "id"] = "\(correlationID)"
        return logger
    }
    /// Where a streaming operation's events go: the request's connection (nil in-process).
    var events: (any EventSink)? { connection.events }

    /// Creates a context (the host does; tests may too); `logger` is labelled on use (``logger``).
    public init(
        operation: String, correlationID: UInt64 = 0, deadline: Deadline? = nil, traceparent: String? = nil,
        peer: PeerCredentials? = nil, caller: String? = nil, callerIsOperator: Bool = false,
        logger: Logger = Logger(label: "verticals")
    ) {
        self.init(
            operation: operation, correlationID: correlationID, deadline: deadline, traceparent: traceparent,
            connection: ConnectionFacts(
                peer: peer, caller: caller ?? peer.map { "uid \($0.uid)" }, callerIsOperator: callerIsOperator,
                logger: logger, events: nil))
    }

    /// Creates the context of one request on `connection`.
    init(
        operation: String, correlationID: UInt64, deadline: Deadline?, traceparent: String?,
        connection: ConnectionFacts, trace: TraceIdentity? = nil, span: VerticalsSpan? = nil
    ) {
        self.operation = operation
        self.correlationID = correlationID
        self.deadline = deadline
        self.traceparent = traceparent
        self.trace = trace
        self.span = span
        self.connection = connection
    }

    /// The context of the request served where this code runs, if any: the host binds it while a
    /// handler runs, in its task or, for `onSync`, on the loop's thread (``Serving/current``).
    public static var current: RequestContext? { (Serving.current as? any ServedContext)?.servedContext }
}

/// What a connection knows of its caller, which every request's ``RequestContext`` on it shares:
/// made once per connection (``ServerConnection``), immutable.
final class ConnectionFacts: Sendable {
    let peer: PeerCredentials?
    let caller: String?
    let callerIsOperator: Bool
    /// The connection's logger, before a request labels it (``RequestContext/logger``).
    let logger: Logger
    /// Where a streaming operation's events go: the connection (nil in-process).
    let events: (any EventSink)?

    init(peer: PeerCredentials?, caller: String?, callerIsOperator: Bool, logger: Logger, events: (any EventSink)?) {
        self.peer = peer
        self.caller = caller
        self.callerIsOperator = callerIsOperator
        self.logger = logger
        self.events = events
    }
}

/// An object that holds a request's context, which its route reads it from (``Router/Route``)
/// and which is bound as ``Serving/current`` while its handler runs: a reference handed down the
/// async layers a request passes, where the context itself, a value of several words, would be
/// copied into each layer's frame (and a task's frames share the slabs its allocator takes with
/// `malloc`).
protocol RequestHolder: ServedContext {
    var context: RequestContext { get }
}

extension RequestHolder {
    var servedContext: RequestContext? { context }
    var deadline: Deadline? { context.deadline }
    var traceparent: String? { context.traceparent }
    var trace: TraceIdentity? { context.trace }
    var span: VerticalsSpan? { context.span }
}

/// The holder of a request served in-process (``Router/serveInProcess(_:_:context:)``).
final class HeldContext: RequestHolder {
    let context: RequestContext

    init(_ context: RequestContext) {
        self.context = context
    }
}

/// An object the host binds as ``Serving/current`` while a handler runs, which holds the
/// handler's ``RequestContext`` (``RequestContext/current`` reads it back): a request's own
/// object for a handler in a task, the thread's for one that runs with none (``ThreadServedRequest``).
protocol ServedContext: TracedRequest {
    /// The context of the request served, if one is.
    var servedContext: RequestContext? { get }
}
