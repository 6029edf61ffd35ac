import Testing
import Synchronization

@testable import VerticalsObservability

/// `verticals_heap_in_bounded_caches_bytes` in `daemon.metrics`: what the caches counted with
/// `BoundedCacheMemory` hold, read when metrics are asked.
@Suite(.serialized)
struct BoundedCacheMemoryTests {
    /// The registry is the process's: other tests' caches fill and empty meanwhile, so the
    /// cache counted here holds far more than all of theirs together can, and the gauge is
    /// judged against that, not as an exact difference.
    @Test func exposition_carriesWhatEachCountedCacheHoldsNow() async throws {
        let metrics = HostMetrics()
        let held = Mutex(0)
        let large = 1 << 40
        BoundedCacheMemory.count("test-cache") { held.withLock { $0 } }
        defer { BoundedCacheMemory.count("test-cache") { 0 } }
        held.withLock { $0 = large }
        let holding = try #require(Self.gauge(in: await metrics.exposition()))
        #expect(holding >= large)
        held.withLock { $0 = 0 }
        let emptied = try #require(Self.gauge(in: await metrics.exposition()))
        #expect(emptied < large, "read when asked, not kept from before")
    }

    @Test func count_underTheSameName_replacesTheSource() {
        let large = 1 << 40
        BoundedCacheMemory.count("test-replaced") { large }
        BoundedCacheMemory.count("test-replaced") { 7 }
        defer { BoundedCacheMemory.count("test-replaced") { 0 } }
        #expect(BoundedCacheMemory.bytes < large)
    }

    /// The gauge's value in `exposition`, or nil when it is absent.
    static func gauge(in exposition: String) -> Int? {
        let prefix = BoundedCacheMemory.label + " "
        return exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) }
    }
}
