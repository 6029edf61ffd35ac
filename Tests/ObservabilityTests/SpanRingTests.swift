import Testing
import Tracing
import VerticalsClient
import VerticalsWire

@testable import VerticalsObservability

/// The ring of recent spans reuses its slots: a span written over one that had a code, a
/// service or details must not show them.
struct SpanRingTests {
    @Test func aSlotWrittenAgain_keepsNothingOfItsLastSpan() {
        let ring = SpanRing(capacity: 1, service: "own")
        let trace = TraceIdentity(traceHigh: 1, traceLow: 2, spanID: 3, sampled: false)
        let details = SpanDetails(attributes: nil, rpc: nil)
        ring.append(
            trace, name: "first", kind: .client, service: "other", startNanoseconds: 10, durationNanoseconds: 5,
            code: .notFound, details: details)
        #expect(ring.all().first?.code == .notFound)
        #expect(ring.all().first?.service == "other")
        ring.append(
            trace, name: "second", kind: .server, service: nil, startNanoseconds: 20, durationNanoseconds: 7,
            code: nil, details: nil)
        let record = ring.all()
        #expect(record.count == 1)
        #expect(record.first?.name == "second")
        #expect(record.first?.code == nil)
        #expect(record.first?.service == "own")
        #expect(record.first?.details == nil)
        #expect(record.first?.durationNanoseconds == 7)
    }
}
