import VerticalsWire

/// The request a task serves, as a call it makes sees it: the deadline the call inherits and the
/// trace it continues.
///
/// A host binds ``Serving/request`` while it runs a handler (VerticalsServiceKit's
/// `RequestContext` is one), so a call made from the handler carries the request's remaining
/// deadline without threading it by hand. A program that serves nothing (a command-line tool)
/// has none: its calls carry their own deadline and no trace.
public protocol CallOrigin: AnyObject, Sendable {
    /// When the served request's caller stops waiting, if it said.
    var deadline: Deadline? { get }
    /// The trace context the served request's caller sent, passed on when no span is made.
    var traceparent: String? { get }
}

/// Where a call finds the request its task serves.
public enum Serving {
    /// The request the current task serves, if any: bound around a handler that runs in a task.
    /// Read ``current``, which also sees a handler that runs with no task.
    @TaskLocal public static var request: (any CallOrigin)?

    /// The request served where this code runs, if any: the current task's (``request``), else
    /// the one a handler that runs with no task serves on this thread (``withThreadRequest(_:_:)``).
    public static var current: (any CallOrigin)? {
        if let request { return request }
        return ThreadRequest.onThisThread?.origin
    }
}

/// Starts the span of each call a client makes (a daemon's tracer; none in a tool).
///
/// Kept apart from ``ServiceClient`` so that calling links no tracing library: the daemon's
/// runtime hands its tracer to the client it makes.
public protocol CallTracing: Sendable {
    /// The traceparent a call to `operation` on `service`, made now from `origin`, sends, and its
    /// span when the trace is sampled; nil when the call is in no trace this tracer knows (it
    /// then passes on the origin's traceparent).
    func startCall(
        _ operation: String, service: String, origin: (any CallOrigin)?, at now: MonotonicInstant
    ) -> (traceparent: String, span: (any CallSpan)?)?
}

/// A call's span, ended once with the call's outcome.
public protocol CallSpan: Sendable {
    /// Ends the span with `result` and the request's size in bytes.
    func endCall(_ result: Result<Message, ServiceError>, requestBytes: Int)
}
