/// A point in time with microsecond precision: microseconds since 1970-01-01T00:00:00Z.
///
/// The wire carries it exactly (a ZigZag varint), so it round-trips without the
/// rounding a floating-point `Date` would bring. Services convert at their edge.
///
/// The codec accepts only instants in ``wireRange`` (years 1 to 9999, docs/PROTOCOL.md § 6), so
/// a decoded timestamp is far from `Int64`'s ends: the difference of two of them, or one moved by
/// a few thousand years, always fits. Arithmetic on an instant from anywhere else uses the checked
/// forms (``addingReportingOverflow(_:)``, ``checkedAdding(_:)``, ``duration(to:)``).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since the Unix epoch (negative before it).
    public var microsecondsSinceEpoch: Int64

    /// Creates a timestamp from microseconds since the Unix epoch.
    @inlinable
    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// Creates a timestamp from whole seconds since the Unix epoch; traps when the seconds do not
    /// fit in `Int64` microseconds (about ±292,000 years), as `*` does. For seconds from input use
    /// ``init(exactlySecondsSinceEpoch:)``.
    @inlinable
    public init(secondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = secondsSinceEpoch * 1_000_000
    }

    /// A timestamp from whole seconds since the Unix epoch, or nil when they do not fit in `Int64`
    /// microseconds.
    @inlinable
    public init?(exactlySecondsSinceEpoch seconds: Int64) {
        let (micros, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        self.microsecondsSinceEpoch = micros
    }

    /// The Unix epoch.
    public static let epoch = Timestamp(microsecondsSinceEpoch: 0)

    /// The earliest instant the codec accepts: 0001-01-01T00:00:00Z.
    public static let earliest = Timestamp(microsecondsSinceEpoch: -62_135_596_800_000_000)
    /// The latest instant the codec accepts: 9999-12-31T23:59:59.999999Z.
    public static let latest = Timestamp(microsecondsSinceEpoch: 253_402_300_799_999_999)
    /// The instants a `timestamp` field may hold on the wire and in JSON: the four-digit years of
    /// RFC 3339, 0001 to 9999. The codec refuses any other as an invalid value.
    public static let wireRange = earliest...latest

    /// Whether the codec accepts this instant (``wireRange``).
    @inlinable
    public var isInWireRange: Bool {
        microsecondsSinceEpoch >= -62_135_596_800_000_000 && microsecondsSinceEpoch <= 253_402_300_799_999_999
    }

    /// This instant moved by `duration` (truncated to whole microseconds).
    ///
    /// Traps when the result does not fit in `Int64` microseconds, as `+` does: for the clock and
    /// settings. For an instant or a duration from input use ``checkedAdding(_:)`` or
    /// ``addingReportingOverflow(_:)``.
    @inlinable
    public func adding(_ duration: Duration) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        return Timestamp(
            microsecondsSinceEpoch: microsecondsSinceEpoch + seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    /// This instant moved by `duration` (truncated to whole microseconds), and whether the result
    /// overflowed `Int64` microseconds (then `partialValue` is meaningless), as `Int`'s
    /// `addingReportingOverflow` reports it.
    @inlinable
    public func addingReportingOverflow(_ duration: Duration) -> (partialValue: Timestamp, overflow: Bool) {
        let (seconds, attoseconds) = duration.components
        let (whole, o1) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (moved, o2) = microsecondsSinceEpoch.addingReportingOverflow(whole)
        let (total, o3) = moved.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        return (Timestamp(microsecondsSinceEpoch: total), o1 || o2 || o3)
    }

    /// This instant moved by `duration` (truncated to whole microseconds); throws
    /// ``TimestampOverflowError`` when the result does not fit in `Int64` microseconds.
    @inlinable
    public func checkedAdding(_ duration: Duration) throws(TimestampOverflowError) -> Timestamp {
        let (moved, overflow) = addingReportingOverflow(duration)
        guard !overflow else { throw TimestampOverflowError(timestamp: self, duration: duration) }
        return moved
    }

    /// The time from this instant to `other` (negative when `other` is earlier). Never overflows:
    /// a `Duration` holds any difference of two `Int64` microsecond counts.
    @inlinable
    public func duration(to other: Timestamp) -> Duration {
        .microseconds(other.microsecondsSinceEpoch) - .microseconds(microsecondsSinceEpoch)
    }

    @inlinable
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    public var description: String { RFC3339.format(self) }
}

/// A ``Timestamp`` moved by a `Swift/Duration` left `Int64` microseconds
/// (``Timestamp/checkedAdding(_:)``): what a trap would have been.
///
/// Its ``code`` is `overflow`; the instant and the duration are also the details `timestamp`
/// and `duration`.
public struct TimestampOverflowError: CodedError, Hashable {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<TimestampOverflowError>

    /// The instant that was moved.
    public let timestamp: Timestamp
    /// How far.
    public let duration: Duration

    /// Creates the error.
    public init(timestamp: Timestamp, duration: Duration) {
        self.timestamp = timestamp
        self.duration = duration
    }

    /// What kind of problem it is: always `overflow`.
    public var code: Code { .overflow }

    /// The instant, the duration, and what a timestamp holds.
    public var message: String {
        "\(timestamp) moved by \(duration) is outside what a timestamp holds (about ±292,000 years from 1970)"
    }

    /// The instant and the duration, as `timestamp` and `duration`.
    public var details: [ErrorDetail] {
        [ErrorDetail("timestamp", timestamp.description), ErrorDetail("duration", duration.description)]
    }
}

extension ErrorKind where Domain == TimestampOverflowError {
    /// The result is outside what a timestamp holds.
    public static var overflow: Self { Self("overflow") }
}

/// The name 0.1.0 published for ``TimestampOverflowError``.
@available(*, deprecated, renamed: "TimestampOverflowError")
public typealias TimestampOverflow = TimestampOverflowError

extension Timestamp {
    /// Why the codec refuses this instant, for an error naming its field.
    @usableFromInline
    var outsideWireRange: String {
        "\(self) is outside the timestamps the wire carries, \(Timestamp.earliest)...\(Timestamp.latest)"
    }
}
