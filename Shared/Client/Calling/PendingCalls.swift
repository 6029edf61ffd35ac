/// A channel's calls waiting for their answers, by correlation id, each with its request bytes.
///
/// A caller awaits each answer, so a channel mostly has one call in flight. That call sits in
/// `single` and costs no hashing; only a second call at once goes to the dictionary. (A
/// dictionary alone hashed each call's id twice, to file it and to remove it: the slot saves
/// ~130 instructions of a typed call's ~12,100, by callgrind.) Ids are unique (the client's
/// counter), so a call is in one place or the other, never both. Loop-confined, as its
/// ``PeerChannel``.
struct PendingCalls {
    /// One waiting call: its continuation and deadline, and the bytes to send again on a new connection.
    typealias Entry = (call: PendingCall, bytes: [UInt8])

    private var single: Entry?
    // bounded: one entry per call of this process in flight, each answered, cancelled or timed out
    private var others: [UInt64: Entry] = [:]

    /// No call is waiting.
    var isEmpty: Bool { single == nil && others.isEmpty }

    /// Every waiting call, in no order.
    var entries: [Entry] {
        guard let single else { return Array(others.values) }
        return [single] + others.values
    }

    /// The call with correlation id `id`, if it still waits.
    subscript(id: UInt64) -> Entry? {
        if single?.call.id == id { return single }
        return others.isEmpty ? nil : others[id]
    }

    /// Whether the call with correlation id `id` still waits.
    func contains(_ id: UInt64) -> Bool {
        single?.call.id == id || (!others.isEmpty && others[id] != nil)
    }

    /// Files `entry` under its call's id, which no waiting call has.
    mutating func insert(_ entry: consuming Entry) {
        if single == nil {
            single = entry
        } else {
            others[entry.call.id] = entry
        }
    }

    /// Removes and returns the call with correlation id `id`, or nil when none waits.
    mutating func removeValue(forKey id: UInt64) -> Entry? {
        // Moved out, not copied: a copy retains, and then releases, every reference the call holds.
        if single?.call.id == id { return single.take() }
        return others.isEmpty ? nil : others.removeValue(forKey: id)
    }

    /// Removes and returns every waiting call.
    mutating func removeAll() -> [Entry] {
        let all = entries
        single = nil
        others.removeAll()
        return all
    }
}
