import Synchronization

/// A bounded in-process copy of rows read from a store that only this process writes, so a hot
/// read (a session, a clinic) answers from memory: no SQL, no hop to GRDB's reader threads.
///
/// Exact, not "eventually" right, as long as every write that changes a cached row calls
/// ``remove(_:)`` (or ``removeAll()``) once it committed. A read that raced such a write cannot
/// put the old row back: ``load(_:reading:)`` stores what it read only if no removal happened
/// since it started reading, so after a write returns, every later lookup sees the write.
///
/// Only rows that exist are kept (a row created a moment later must be found), and past
/// `capacity` entries the cache starts over, which only costs the next lookups a read each.
///
/// ```swift
/// let sessions = ReadCache<String, Session>()
/// let session = try await sessions.load(hash) { try await repository.session(tokenHash: hash) }
/// // after the logout's commit:
/// sessions.remove(hash)
/// ```
public final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: [Key: Value] = [:]
        /// Bumped by every removal: a read that started under an older generation is not kept.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most entries kept at once.
    public let capacity: Int

    /// An empty cache keeping up to `capacity` entries.
    public init(capacity: Int = 10_000) {
        precondition(capacity > 0, "a cache keeps at least one entry")
        self.capacity = capacity
    }

    /// How many entries the cache holds.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// The cached value for `key`, if any.
    public func cached(_ key: Key) -> Value? {
        state.withLock { $0.entries[key] }
    }

    /// The value for `key`: the cached one, or what `read` finds in the store (kept for next
    /// time unless a removal happened while it read). `nil` when the store has no such row.
    public func load(_ key: Key, reading read: () async throws -> Value?) async rethrows -> Value? {
        let (hit, generation) = state.withLock { ($0.entries[key], $0.generation) }
        if let hit { return hit }
        guard let value = try await read() else { return nil }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = value
        }
        return value
    }

    /// Forgets `key`; call it after a write that changed or deleted its row has committed.
    public func remove(_ key: Key) {
        state.withLock { state in
            state.generation &+= 1
            state.entries[key] = nil
        }
    }

    /// Forgets every entry; call it after a write that may change many cached rows has committed.
    public func removeAll() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll()
        }
    }
}
