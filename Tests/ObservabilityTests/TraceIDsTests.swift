import Testing
@testable import VerticalsObservability

/// New traces' ids (one draw each) and the sampling ratio's threshold.
struct TraceIDsTests {
    @Test func rootIDs_areNonZero_andUniqueAcrossDraws() {
        var lows = Set<UInt64>()
        var spans = Set<UInt64>()
        var draw: UInt64 = 0
        for _ in 0..<10_000 {
            draw &+= TraceIDs.gamma
            let root = TraceIDs.root(draw: draw)
            #expect(root.low != 0 && root.high != 0 && root.span != 0)
            #expect(root.high != root.low)
            lows.insert(root.low)
            spans.insert(root.span)
        }
        #expect(lows.count == 10_000)
        #expect(spans.count == 10_000)
    }

    @Test func rootIDs_ofADrawThatMixesToAnyValue_stayNonZero() {
        // The high half is an odd multiple of the low half, so only a zero low half could make it
        // zero, and `mix` never returns zero.
        for draw: UInt64 in [0, 1, .max, TraceIDs.gamma, 0x8000_0000_0000_0000] {
            let root = TraceIDs.root(draw: draw)
            #expect(root.low != 0 && root.high != 0 && root.span != 0)
        }
    }

    @Test func threshold_followsTheRatio() throws {
        #expect(TraceSampling(ratio: 0).threshold == 0)
        #expect(TraceSampling(ratio: 1).threshold == nil)
        var outOfRange = TraceSampling(ratio: 0.5)
        outOfRange.ratio = 7
        #expect(outOfRange.threshold == nil)
        outOfRange.ratio = -1
        #expect(outOfRange.threshold == 0)
        let half = try #require(TraceSampling(ratio: 0.5).threshold)
        #expect(half > UInt64.max / 2 - 1_000_000 && half < UInt64.max / 2 + 1_000_000)
    }

    @Test(arguments: [(0.0, 0...0), (1.0, 4_000...4_000), (0.5, 1_600...2_400)])
    func newTraces_areSampledAtTheRatio(ratio: Double, expected: ClosedRange<Int>) {
        let recorder = TraceRecorder(service: "echo", sampling: TraceSampling(ratio: ratio))
        let sampled = (0..<4_000).filter { _ in recorder.serverIdentity(traceparent: nil).sampled }.count
        #expect(expected.contains(sampled), "\(sampled) of 4000 sampled at ratio \(ratio)")
    }
}
