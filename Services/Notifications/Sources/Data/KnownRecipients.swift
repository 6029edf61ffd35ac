import Synchronization

/// The user ids identity confirmed exist, so a second send to the same user skips the call.
///
/// Safe to keep because identity never deletes a user (its contract has no such operation): a
/// user confirmed once stays a valid recipient. Only confirmations are kept, never "unknown": a
/// user registered a moment later must be found. Bounded: past `capacity` ids it starts over,
/// which only costs the next sends their look-up again. If identity ever gains a deletion, this
/// must go (or learn of deletions) with it.
package final class KnownRecipients: Sendable {
    private let ids = Mutex(Set<String>())
    /// The most ids kept at once.
    package let capacity: Int

    /// An empty set keeping up to `capacity` ids.
    package init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Whether identity confirmed `userID` before.
    package func contains(_ userID: String) -> Bool {
        ids.withLock { $0.contains(userID) }
    }

    /// Remembers that identity confirmed `userID`.
    package func insert(_ userID: String) {
        ids.withLock { ids in
            if ids.count >= capacity { ids.removeAll(keepingCapacity: true) }
            ids.insert(userID)
        }
    }
}
