/// A point in time with microsecond precision: microseconds since 1970-01-01T00:00:00Z.
///
/// The wire carries it exactly (a ZigZag varint), so it round-trips without the
/// rounding a floating-point `Date` would bring. Services convert at their edge.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since the Unix epoch (negative before it).
    public var microsecondsSinceEpoch: Int64

    /// Creates a timestamp from microseconds since the Unix epoch.
    @inlinable
    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// Creates a timestamp from whole seconds since the Unix epoch.
    @inlinable
    public init(secondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = secondsSinceEpoch * 1_000_000
    }

    /// The Unix epoch.
    public static let epoch = Timestamp(microsecondsSinceEpoch: 0)

    /// This instant moved by `duration` (truncated to whole microseconds).
    @inlinable
    public func adding(_ duration: Duration) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        return Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch + seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    @inlinable
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    public var description: String { RFC3339.format(self) }
}
