import VerticalsClient
extension ServerConnection {
    /// The requests of a connection whose handlers suspended, by correlation id.
    ///
    /// A caller mostly has one request in flight on a connection: that one sits in `single` and
    /// costs no hashing; only a second at once goes to the dictionary. A connection that never
    /// has two in flight makes no dictionary keyed by `UInt64` either, whose storage's first
    /// instantiation in a process has the Swift runtime look `UInt64: Hashable` up in every
    /// conformance record of the binary (on a daemon's first request, by callgrind, a quarter of
    /// what that request cost more than a warm one). Ids are unique on a connection (a repeated
    /// one ends it), so a request is in one place or the other, never both.
    struct InFlightRequests {
        // Two fields, not an optional `(id, entry)` tuple, whose copies had the Swift runtime
        // build its metadata from its mangled name on a daemon's first request.
        private var singleID: UInt64 = 0
        private var single: InFlight?
        private var others: [UInt64: InFlight] = [:]

        /// How many requests are filed.
        var count: Int { (single == nil ? 0 : 1) + others.count }

        /// Whether request `id` is filed.
        func contains(_ id: UInt64) -> Bool {
            (single != nil && singleID == id) || (!others.isEmpty && others[id] != nil)
        }

        /// Files request `id`, which no filed request has.
        mutating func insert(_ entry: InFlight, id: UInt64) {
            if single == nil {
                singleID = id
                single = entry
            } else {
                others[id] = entry
            }
        }

        /// Removes and returns request `id`, or nil when it is not filed.
        mutating func removeValue(forKey id: UInt64) -> InFlight? {
            if single != nil && singleID == id { return single.take() }
            return others.isEmpty ? nil : others.removeValue(forKey: id)
        }

        /// Removes and returns request `id` when it is the connection's `serial`th request; nil
        /// when it is not filed, or when the id is now another request's.
        mutating func removeValue(forKey id: UInt64, serial: UInt64) -> InFlight? {
            if single != nil && singleID == id {
                return single?.serial == serial ? single.take() : nil
            }
            guard !others.isEmpty, others[id]?.serial == serial else { return nil }
            return others.removeValue(forKey: id)
        }

        /// Calls `body` with each filed request, in no order.
        func forEach(_ body: (UInt64, InFlight) -> Void) {
            if let single { body(singleID, single) }
            for (id, entry) in others { body(id, entry) }
        }

        /// Each filed request's id and deadline, for `DeadlineCheck/sweep(_:)`.
        var deadlines: [(UInt64, MonotonicInstant?)] {
            var all: [(UInt64, MonotonicInstant?)] = []
            forEach { id, entry in all.append((id, entry.deadline)) }
            return all
        }
    }
}
