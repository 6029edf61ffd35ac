/// A set of the error codes this build knows, as one word: what an operation declares, held by
/// each call in flight.
///
/// A call keeps its operation's declared codes until its answer comes, to hold a callee's error to
/// them (`ServiceError.declared(_:by:)`). As an array, that was a reference counted on every call
/// (retained when the call was filed, released when it ended); as a word it costs nothing to copy.
///
/// Only the codes this build knows are members: ``ErrorCode/unknown(_:)`` is never one, so an
/// answer with a code this build does not know is never a declared one (such a code is treated as
/// `internal` anyway).
package struct ErrorCodeSet: Sendable, Hashable, ExpressibleByArrayLiteral {
    private var bits: UInt16

    /// The empty set.
    package init() { bits = 0 }

    /// The known codes among `codes`.
    package init(_ codes: some Sequence<ErrorCode>) {
        bits = 0
        for code in codes { insert(code) }
    }

    package init(arrayLiteral codes: ErrorCode...) { self.init(codes) }

    /// Whether `code` is a member; never for ``ErrorCode/unknown(_:)``.
    package func contains(_ code: ErrorCode) -> Bool {
        guard let bit = Self.bit(code) else { return false }
        return bits & bit != 0
    }

    /// Adds `code`, unless it is one this build does not know.
    package mutating func insert(_ code: ErrorCode) {
        if let bit = Self.bit(code) { bits |= bit }
    }

    /// The union of this set and `other`.
    package func union(_ other: ErrorCodeSet) -> ErrorCodeSet {
        var union = self
        union.bits |= other.bits
        return union
    }

    private static func bit(_ code: ErrorCode) -> UInt16? {
        let index: UInt16? =
            switch code {
            case .invalidInput: 0
            case .unauthenticated: 1
            case .permissionDenied: 2
            case .notFound: 3
            case .conflict: 4
            case .unavailable: 5
            case .deadlineExceeded: 6
            case .resourceExhausted: 7
            case .cancelled: 8
            case .unimplemented: 9
            case .protocolError: 10
            case .internal: 11
            case .unknown: nil
            }
        return index.map { 1 << $0 }
    }
}
