import Synchronization
import Tracing
import VerticalsClient
import VerticalsWire

/// A daemon's recent spans, in a fixed ring (default 1024): the newest overwrite the oldest.
///
/// Read by `daemon.traces` (`svc-supervisor trace`). Memory is bounded and allocated once;
/// adding a record takes one uncontended lock and stores it in its slot.
///
/// A daemon serving on several event loops gives each loop a lane of its own (``TraceRecorder``'s
/// `lanes`), its share of the capacity: a loop records its requests in its lane, so two loops
/// never take the same lock or write the same cache lines for a request. Reading merges the lanes.
public final class SpanRing: Sendable {
    /// One slot: a record's fields, stored in place.
    ///
    /// Fields in a buffer rather than records in an array inside the mutex: records in a generic
    /// `Mutex`, or as optionals, were copied, stored and dropped through generic value witnesses,
    /// the larger part of an unsampled request's tracing cost. A summary now writes a few words,
    /// and its name into its slot.
    private struct Slot {
        var identity = TraceIdentity(traceHigh: 0, traceLow: 0, spanID: 0, sampled: false)
        var startNanoseconds: UInt64 = 0
        var durationNanoseconds: UInt64 = 0
        var kind = SpanKind.internal
        var code: ErrorCode? = nil
        var name = ""
        /// Nil for the ring's own service (``service``): a record of this daemon stores no string for it.
        var service: String? = nil
        var details: SpanDetails? = nil
        var isFilled = false

        /// The record it holds, if any, whose service is `ownService` unless the slot names another.
        func record(ownService: String) -> SpanRecord? {
            guard isFilled else { return nil }
            return SpanRecord(
                identity: identity, name: name, kind: kind, service: service ?? ownService,
                startNanoseconds: startNanoseconds,
                durationNanoseconds: durationNanoseconds, code: code, details: details)
        }
    }

    /// One loop's part of the ring: its slots and the lock that guards them.
    package final class Lane: Sendable {
        /// The slot the next record goes to; its lock guards ``slots``.
        private let next = Mutex(0)
        /// Keeps the next lane's lock off this one's cache line, whichever of the two the
        /// allocator placed first: each lane is written by its own loop's thread.
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        /// The slots, allocated and initialised once, deinitialised in deinit. `nonisolated(unsafe)`
        /// is sound because every access to them (`append` and `records(ownService:)`) holds
        /// `next`'s lock, and deinit runs when no other reference exists.
        private nonisolated(unsafe) let slots: UnsafeMutablePointer<Slot>
        package let capacity: Int

        init(capacity: Int) {
            self.capacity = max(1, capacity)
            slots = .allocate(capacity: self.capacity)
            slots.initialize(repeating: Slot(), count: self.capacity)
        }

        deinit {
            slots.deinitialize(count: capacity)
            slots.deallocate()
        }

        /// Keeps a record given by its fields, written into its slot one by one: no record is
        /// made, copied or dropped for it (the request path's form of `SpanRing.append(_:)`);
        /// `service` nil for the ring's own.
        func append(
            _ identity: TraceIdentity, name: String, kind: SpanKind, service: String?, startNanoseconds: UInt64,
            durationNanoseconds: UInt64, code: ErrorCode?, details: SpanDetails?
        ) {
            next.withLock { next in
                let slot = slots + next
                slot.pointee.identity = identity
                slot.pointee.startNanoseconds = startNanoseconds
                slot.pointee.durationNanoseconds = durationNanoseconds
                slot.pointee.kind = kind
                slot.pointee.code = code
                slot.pointee.name = name
                slot.pointee.service = service
                slot.pointee.details = details
                slot.pointee.isFilled = true
                next = next + 1 == capacity ? 0 : next + 1
            }
        }

        /// Every record held, oldest first.
        package func records(ownService: String) -> [SpanRecord] {
            next.withLock { next in
                var records: [SpanRecord] = []
                records.reserveCapacity(capacity)
                for offset in 0..<capacity {
                    let slot = slots[(next + offset) % capacity]
                    if let record = slot.record(ownService: ownService) { records.append(record) }
                }
                return records
            }
        }
    }

    /// The lanes, one per loop that records (one for a ring made alone).
    package let lanes: [Lane]
    /// How many records it holds at most (over all its lanes).
    public let capacity: Int
    /// The service of the records appended with none (the field-by-field `append`'s nil): its owner's.
    let service: String

    /// An empty ring of `capacity` (≥ 1) records.
    public convenience init(capacity: Int = 1024) {
        self.init(capacity: capacity, service: "")
    }

    /// An empty ring of `capacity` (≥ 1) records of `service` (its ``TraceRecorder``'s), in
    /// `lanes` lanes of an equal share each (rounded up).
    init(capacity: Int, service: String, lanes: Int = 1) {
        self.service = service
        let count = max(1, lanes)
        let share = (max(1, capacity) + count - 1) / count
        self.lanes = (0..<count).map { _ in Lane(capacity: share) }
        self.capacity = share * count
    }

    /// Keeps `record`, dropping the oldest of the first lane's when it is full.
    public func append(_ record: SpanRecord) {
        append(
            record.identity, name: record.name, kind: record.kind, service: record.service,
            startNanoseconds: record.startNanoseconds, durationNanoseconds: record.durationNanoseconds,
            code: record.code, details: record.details)
    }

    /// Keeps a record given by its fields in the first lane; `service` nil for the ring's own.
    func append(
        _ identity: TraceIdentity, name: String, kind: SpanKind, service: String?, startNanoseconds: UInt64,
        durationNanoseconds: UInt64, code: ErrorCode?, details: SpanDetails?
    ) {
        lanes[0].append(
            identity, name: name, kind: kind, service: service, startNanoseconds: startNanoseconds,
            durationNanoseconds: durationNanoseconds, code: code, details: details)
    }

    /// Every record held, oldest first: in the order they were kept within a lane, and across
    /// lanes by when they ended.
    public func all() -> [SpanRecord] {
        guard lanes.count > 1 else { return lanes[0].records(ownService: service) }
        // Each record with where it sits (lane, then place in it), so that two records that ended
        // at the same nanosecond keep an order that does not depend on the sort.
        let placed = lanes.enumerated().flatMap { lane, records in
            records.records(ownService: service).enumerated().map { (lane: lane, place: $0, record: $1) }
        }
        return placed.sorted {
            let (left, right) = (
                $0.record.startNanoseconds &+ $0.record.durationNanoseconds,
                $1.record.startNanoseconds &+ $1.record.durationNanoseconds
            )
            return left != right ? left < right : ($0.lane, $0.place) < ($1.lane, $1.place)
        }.map(\.record)
    }

    /// The records of the trace whose id is `traceHigh`:`traceLow`, oldest first.
    public func trace(high: UInt64, low: UInt64) -> [SpanRecord] {
        all().filter { $0.identity.traceHigh == high && $0.identity.traceLow == low }
    }

    /// The `count` slowest server spans held, slowest first.
    public func slowest(_ count: Int) -> [SpanRecord] {
        Array(
            all().filter { $0.kind == .server }.sorted { $0.durationNanoseconds > $1.durationNanoseconds }.prefix(count)
        )
    }
}
