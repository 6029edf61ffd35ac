import Synchronization
import Tracing
import VerticalsClient
import VerticalsWire

/// A daemon's recent spans, in a fixed ring (default 1024): the newest overwrite the oldest.
///
/// Read by `daemon.traces` (`svc-supervisor trace`). Memory is bounded and allocated once;
/// adding a record takes one uncontended lock and stores it in its slot.
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

    /// The slots, allocated and initialised once, deinitialised in deinit. `nonisolated(unsafe)`
    /// is sound because every access to them (the two `append`s and ``all()``) holds `next`'s lock, and deinit runs when no other reference exists.
    private nonisolated(unsafe) let slots: UnsafeMutablePointer<Slot>
    /// The slot the next record goes to; its lock guards ``slots``.
    private let next = Mutex(0)
    /// How many records it holds at most.
    public let capacity: Int
    /// The service of the records appended with none (the field-by-field `append`'s nil): its owner's.
    let service: String

    /// An empty ring of `capacity` (≥ 1) records.
    public convenience init(capacity: Int = 1024) {
        self.init(capacity: capacity, service: "")
    }

    /// An empty ring of `capacity` (≥ 1) records of `service` (its ``TraceRecorder``'s).
    init(capacity: Int, service: String) {
        self.service = service
        self.capacity = max(1, capacity)
        slots = .allocate(capacity: self.capacity)
        slots.initialize(repeating: Slot(), count: self.capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Keeps `record`, dropping the oldest when full.
    public func append(_ record: SpanRecord) {
        append(
            record.identity, name: record.name, kind: record.kind, service: record.service,
            startNanoseconds: record.startNanoseconds, durationNanoseconds: record.durationNanoseconds,
            code: record.code, details: record.details)
    }

    /// Keeps a record given by its fields, written into its slot one by one: no record is made,
    /// copied or dropped for it (the request path's form of ``append(_:)``); `service` nil for
    /// the ring's own.
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
    public func all() -> [SpanRecord] {
        next.withLock { next in
            var records: [SpanRecord] = []
            records.reserveCapacity(capacity)
            for offset in 0..<capacity {
                let slot = slots[(next + offset) % capacity]
                if let record = slot.record(ownService: service) { records.append(record) }
            }
            return records
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
