import VerticalsClient

/// The request a task serves, as the spans and log lines made while serving it see it: its place in
/// its trace and its server span.
///
/// VerticalsServiceKit's `RequestContext` is one. The host binds it as `Serving/request` while a
/// handler runs, and this module reads it back from there, so tracing and logging need no host.
public protocol TracedRequest: CallOrigin {
    /// The server span's place in its trace (nil when the daemon traces nothing).
    var trace: TraceIdentity? { get }
    /// The server span, made only when the trace is sampled.
    var span: VerticalsSpan? { get }
}

extension TracedRequest {
    /// The parent of the calls and spans made while serving it (nil when tracing is off).
    var spanParent: SpanParent? {
        trace.map { SpanParent(identity: $0, recorder: span?.recorder) }
    }
}

extension Serving {
    /// The request served where this code runs, if it is one whose trace this module can read.
    static var traced: (any TracedRequest)? { current as? any TracedRequest }
}
