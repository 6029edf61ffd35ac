import Testing

@testable import VerticalsObservability

/// `verticals_heap_in_use_bytes` in `daemon.metrics`: the live heap, read when metrics are asked.
struct HeapGaugeTests {
    @Test func exposition_carriesTheLiveHeap_andItGrowsWithWhatIsKept() async throws {
        let metrics = HostMetrics()
        let before = try #require(Self.heap(in: await metrics.exposition()))
        // 8 MiB kept while the metrics are read again: in blocks of its own (above glibc's
        // mapping threshold) or in a heap, counted either way.
        let kept = [UInt8](repeating: 1, count: 8 << 20)
        let after = try #require(Self.heap(in: await metrics.exposition()))
        #expect(before > 0)
        #expect(after - before >= kept.count / 2)
        #expect(kept.count == 8 << 20)
    }

    /// The gauge's value in `exposition`, or nil when it is absent.
    static func heap(in exposition: String) -> Int? {
        let prefix = HostMetrics.heapInUseLabel + " "
        return exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) }
    }
}
