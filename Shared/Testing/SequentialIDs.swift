import Synchronization

/// Ids a test can predict: `prefix` and 1, 2, 3, … in the order they are asked for.
public final class SequentialIDs: Sendable {
    private let prefix: String
    private let count = Atomic<Int>(0)

    /// Ids `prefix1`, `prefix2`, ….
    public init(prefix: String) {
        self.prefix = prefix
    }

    /// The next id.
    public func next() -> String {
        prefix + String(count.wrappingAdd(1, ordering: .relaxed).newValue)
    }
}
