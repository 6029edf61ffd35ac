/// A table keyed by what a peer sends, holding at most ``capacity`` entries: the one way a
/// long-lived process keeps anything per peer input (a set of operations checked, a caller's
/// count, a callee's finding), so that no sequence of distinct inputs can grow it.
///
/// Once full, storing a new key forgets the entry least recently stored or read
/// (``store(_:for:)``), or is refused where forgetting would be wrong (``storeIfRoom(_:for:)``, for
/// a count that must not be lost). Forgetting costs one pass over the entries, so capacities stay
/// in the thousands at most; a hit costs one hash lookup.
///
/// A value type: a table shared across threads sits in a `Mutex`. Its members are inlinable, so
/// a module that keeps one gets it specialised for its own key and value: a generic table reached
/// across modules would look its types' metadata up at run time on every use.
///
/// ```swift
/// let known = Mutex(BoundedCache<[String], String>(capacity: 256))
/// let fingerprint = known.withLock { $0.value(for: names) }
/// ```
public struct BoundedCache<Key: Hashable, Value> {
    /// The most entries it holds.
    public let capacity: Int
    @usableFromInline var entries: [Key: Entry] = [:]
    /// Counts up at each store and read: an entry's stamp says when it was last used.
    @usableFromInline var clock: UInt64 = 0

    @usableFromInline
    struct Entry {
        @usableFromInline var value: Value
        @usableFromInline var used: UInt64

        @inlinable
        init(value: Value, used: UInt64) {
            self.value = value
            self.used = used
        }
    }

    /// An empty table of at most `capacity` entries (at least one).
    @inlinable
    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The entries held now.
    @inlinable
    public var count: Int { entries.count }

    /// Whether it holds nothing.
    @inlinable
    public var isEmpty: Bool { entries.isEmpty }

    /// The value stored for `key`, marked as used now; nil when there is none.
    @inlinable
    public mutating func value(for key: Key) -> Value? {
        guard var entry = entries[key] else { return nil }
        clock &+= 1
        entry.used = clock
        entries[key] = entry
        return entry.value
    }

    /// The value stored for `key`, leaving its place in the order as it is.
    @inlinable
    public subscript(key: Key) -> Value? {
        entries[key]?.value
    }

    /// Stores `value` for `key`; once full, a new key first forgets the least recently used
    /// entry, which is returned.
    @inlinable @discardableResult
    public mutating func store(_ value: Value, for key: Key) -> (key: Key, value: Value)? {
        clock &+= 1
        if entries[key] != nil {
            entries[key] = Entry(value: value, used: clock)
            return nil
        }
        var forgotten: (key: Key, value: Value)?
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
            entries[oldest.key] = nil
            forgotten = (oldest.key, oldest.value.value)
        }
        entries[key] = Entry(value: value, used: clock)
        return forgotten
    }

    /// Stores `value` for `key` if `key` is held already or there is room; false, changing
    /// nothing, when it is full.
    @inlinable
    public mutating func storeIfRoom(_ value: Value, for key: Key) -> Bool {
        guard entries[key] != nil || entries.count < capacity else { return false }
        store(value, for: key)
        return true
    }

    /// Forgets `key`, returning its value.
    @inlinable @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        entries.removeValue(forKey: key)?.value
    }

    /// Every entry, in no particular order.
    @inlinable
    public var all: [(key: Key, value: Value)] {
        entries.map { ($0.key, $0.value.value) }
    }
}

extension BoundedCache: Sendable where Key: Sendable, Value: Sendable {}

extension BoundedCache.Entry: Sendable where Value: Sendable {}
