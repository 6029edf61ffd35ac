import Synchronization
import Tracing

/// A daemon's recent spans, in a fixed ring (default 1024): the newest overwrite the oldest.
///
/// Read by `daemon.traces` (`svc-supervisor trace`). Memory is bounded and allocated once;
/// adding a record takes one uncontended lock and stores it in its slot.
public final class SpanRing: Sendable {
    private struct Slots {
        var records: [SpanRecord?]
        var next = 0
    }

    private let slots: Mutex<Slots>
    /// How many records it holds at most.
    public let capacity: Int

    /// An empty ring of `capacity` (≥ 1) records.
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
        slots = Mutex(Slots(records: Array(repeating: nil, count: max(1, capacity))))
    }

    /// Keeps `record`, dropping the oldest when full.
    public func append(_ record: SpanRecord) {
        slots.withLock { slots in
            slots.records[slots.next] = record
            slots.next = slots.next + 1 == slots.records.count ? 0 : slots.next + 1
        }
    }

    /// Every record held, oldest first.
    public func all() -> [SpanRecord] {
        slots.withLock { slots in
            Array((slots.records[slots.next...] + slots.records[..<slots.next]).compactMap { $0 })
        }
    }

    /// The records of the trace whose id is `traceHigh`:`traceLow`, oldest first.
    public func trace(high: UInt64, low: UInt64) -> [SpanRecord] {
        all().filter { $0.identity.traceHigh == high && $0.identity.traceLow == low }
    }

    /// The `count` slowest server spans held, slowest first.
    public func slowest(_ count: Int) -> [SpanRecord] {
        Array(all().filter { $0.kind == .server }.sorted { $0.durationNanoseconds > $1.durationNanoseconds }.prefix(count))
    }
}
