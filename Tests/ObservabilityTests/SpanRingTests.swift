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

    /// A ring of several lanes (one per loop) splits its capacity between them; each lane drops its
    /// own oldest, and reading merges the lanes by when each span ended.
    @Test func lanes_shareTheCapacity_dropTheirOwnOldest_andReadMergedByEnd() {
        let ring = SpanRing(capacity: 4, service: "own", lanes: 2)
        #expect(ring.lanes.count == 2 && ring.lanes.allSatisfy { $0.capacity == 2 } && ring.capacity == 4)
        let trace = TraceIdentity(traceHigh: 1, traceLow: 2, spanID: 3, sampled: false)
        func keep(_ name: String, lane: Int, start: UInt64, duration: UInt64) {
            ring.lanes[lane].append(
                trace, name: name, kind: .server, service: nil, startNanoseconds: start, durationNanoseconds: duration,
                code: nil, details: nil)
        }
        keep("a", lane: 1, start: 10, duration: 1) // dropped: its lane keeps its last two
        keep("b", lane: 1, start: 20, duration: 30) // ends at 50
        keep("c", lane: 0, start: 25, duration: 5) // ends at 30
        keep("d", lane: 1, start: 40, duration: 0) // ends at 40
        keep("e", lane: 0, start: 10, duration: 30) // ends at 40, as d: lane 0 first
        #expect(ring.all().map(\.name) == ["c", "e", "d", "b"])
        #expect(ring.all().allSatisfy { $0.service == "own" })
    }

    /// A recorder's lanes draw their ids apart: no two of them repeat an id, and a loop past the
    /// count shares a lane rather than fail.
    @Test func aRecordersLanes_drawDistinctIds_andWrap() {
        let recorder = TraceRecorder(service: "own", sampling: TraceSampling(ratio: 0), lanes: 2)
        #expect(recorder.lane(0) !== recorder.lane(1))
        #expect(recorder.lane(2) === recorder.lane(0))
        var ids = Set<UInt64>()
        for index in 0..<2_000 {
            let identity = recorder.lane(index % 2).serverIdentity(traceparent: nil)
            ids.insert(identity.traceLow)
            ids.insert(identity.spanID)
        }
        #expect(ids.count == 4_000)
        let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        let children = (0..<100).map { recorder.lane($0 % 2).serverIdentity(traceparent: parent) }
        #expect(Set(children.map(\.spanID)).count == 100)
        #expect(children.allSatisfy { $0.parentSpanID == 0xb7ad_6b71_6920_3331 && $0.sampled })
        recorder.lane(1).recordSummary(
            children[0], name: "echo.echo", started: .now, ended: .now, code: nil)
        #expect(recorder.ring.lanes[1].records(ownService: "own").map(\.name) == ["echo.echo"])
        #expect(recorder.ring.all().map(\.name) == ["echo.echo"])
    }
}
