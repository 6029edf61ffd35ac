import Synchronization

/// Heap held by caches whose size has a stated bound and that a daemon fills as it works, such as
/// a store's page cache (SQLite's own memory: at most its cache size a connection), told apart
/// from what requests leave behind. `daemon.metrics` reports it as
/// `verticals_heap_in_bounded_caches_bytes` beside `verticals_heap_in_use_bytes`, which counts it
/// too, so that the cost search (`make fuzz-cost`) judges a connection by the heap it left outside
/// them: a valid write that fills the store's cache is what the cache is for, and it cannot grow
/// past its bound.
package enum BoundedCacheMemory {
    /// The gauge's name in `daemon.metrics`.
    package static let label = "verticals_heap_in_bounded_caches_bytes"

    private static let sources = Mutex<[String: @Sendable () -> Int]>([:])

    /// Counts `bytes`, read whenever metrics are, as the heap of the cache `name` (once per name:
    /// a second call replaces the first).
    package static func count(_ name: String, _ bytes: @escaping @Sendable () -> Int) {
        sources.withLock { $0[name] = bytes }
    }

    /// The heap held now by every cache counted.
    package static var bytes: Int {
        sources.withLock { $0.values.reduce(0) { $0 + $1() } }
    }
}
