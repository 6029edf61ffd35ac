import Testing
import Synchronization

@testable import VerticalsObservability

/// `verticals_heap_in_bounded_caches_bytes` in `daemon.metrics`: what the caches counted with
/// `BoundedCacheMemory` hold, read when metrics are asked.
struct BoundedCacheMemoryTests {
    @Test func exposition_carriesWhatEachCountedCacheHoldsNow() async throws {
        let metrics = HostMetrics()
        let held = Mutex(0)
        BoundedCacheMemory.count("test-cache") { held.withLock { $0 } }
        defer { BoundedCacheMemory.count("test-cache") { 0 } }
        let before = try #require(Self.gauge(in: await metrics.exposition()))
        held.withLock { $0 = 123_456 }
        let after = try #require(Self.gauge(in: await metrics.exposition()))
        #expect(after - before == 123_456)
    }

    @Test func count_underTheSameName_replacesTheSource() {
        BoundedCacheMemory.count("test-replaced") { 1_000_000 }
        BoundedCacheMemory.count("test-replaced") { 7 }
        defer { BoundedCacheMemory.count("test-replaced") { 0 } }
        #expect(BoundedCacheMemory.bytes < 1_000_000)
    }

    /// The gauge's value in `exposition`, or nil when it is absent.
    static func gauge(in exposition: String) -> Int? {
        let prefix = BoundedCacheMemory.label + " "
        return exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) }
    }
}
