import Logging
import Testing
import VerticalsClient
@testable import VerticalsObservability

/// The one seam between observability and the host: what this module knows of the request a task
/// serves is what `Serving.request` holds, and only when that is a `TracedRequest`.
struct TracedRequestTests {
    /// A served request as a host makes it: its trace, and its server span when sampled.
    final class Served: TracedRequest {
        let deadline: Deadline? = nil
        let traceparent: String? = nil
        let trace: TraceIdentity?
        let span: VerticalsSpan?

        init(trace: TraceIdentity?, span: VerticalsSpan? = nil) {
            self.trace = trace
            self.span = span
        }
    }

    /// A request bound by code that knows nothing of tracing (a test double of the client's seam):
    /// its traceparent is the caller's, which this module must not mistake for a trace of its own.
    final class Untraced: CallOrigin {
        let deadline: Deadline? = nil
        let traceparent: String? = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    }

    static let unsampled = TraceIdentity(
        traceHigh: 0x0af7_6519_16cd_43dd, traceLow: 0x8448_eb21_1c80_319c, spanID: 0xb7ad_6b71_6920_3331,
        sampled: false)

    @Test func aLineLoggedWhileServing_carriesTheRequestsTraceAndSpanIDs() {
        let metadata = Serving.$request.withValue(Served(trace: Self.unsampled)) {
            Logger.MetadataProvider.requestTrace.get()
        }
        #expect(metadata["trace_id"] == "\(Self.unsampled.traceID)")
        #expect(metadata["span_id"] == "\(Self.unsampled.spanIDText)")
    }

    @Test func aLineLoggedOutsideARequest_orForOneWithNoTrace_carriesNoIDs() {
        #expect(Logger.MetadataProvider.requestTrace.get().isEmpty)
        #expect(Serving.$request.withValue(Untraced()) { Logger.MetadataProvider.requestTrace.get() }.isEmpty)
        #expect(Serving.$request.withValue(Served(trace: nil)) { Logger.MetadataProvider.requestTrace.get() }.isEmpty)
    }

    @Test func aCallMadeWhileServingAnUnsampledRequest_sendsItsTrace_andMakesNoSpan() throws {
        let tracing = VerticalsCallTracing()
        let started = try #require(
            tracing.startCall("inventory.count", service: "inventory", origin: Served(trace: Self.unsampled), at: .now))
        #expect(started.traceparent == Self.unsampled.traceparent)
        #expect(started.span == nil)
    }

    @Test func aCallMadeWhileServingASampledRequest_isASpanOfItsTrace_childOfTheServerSpan() throws {
        let recorder = TraceRecorder(service: "orders", sampling: TraceSampling(ratio: 1))
        var sampled = Self.unsampled
        sampled.sampled = true
        let server = VerticalsSpan(
            name: "orders.place", identity: sampled, kind: .server, recorder: recorder, startNanoseconds: 1)
        let started = try #require(
            VerticalsCallTracing().startCall(
                "inventory.count", service: "inventory", origin: Served(trace: sampled, span: server), at: .now))
        let sent = try #require(TraceIdentity.parse(traceparent: started.traceparent))
        #expect(sent.traceHigh == sampled.traceHigh && sent.traceLow == sampled.traceLow && sent.sampled)
        #expect(sent.parent != sampled.spanID, "the call sends its own span's id")
        #expect(started.span != nil)
    }

    @Test func aCallMadeOutsideARequest_orFromAnUntracedOne_isInNoTraceOfItsOwn() {
        let tracing = VerticalsCallTracing()
        #expect(tracing.startCall("inventory.count", service: "inventory", origin: nil, at: .now) == nil)
        #expect(tracing.startCall("inventory.count", service: "inventory", origin: Untraced(), at: .now) == nil)
    }
}
