extension WireDecodingError {
    /// What went wrong, as a closed enum: one more case would break every exhaustive `switch`.
    @available(*, deprecated, message: "use WireDecodingError.Code and the static factories (.truncated(tag:), …)")
    public enum Reason: Sendable, Equatable {
        /// The body ended inside a field.
        case truncated
        /// A field key named a wire type that does not exist.
        case unsupportedWireType(UInt8)
        /// A field key named tag 0 or a tag past 2^29-1.
        case invalidTag(UInt64)
        /// A known field arrived with another wire type than its schema's.
        case wrongWireType(expected: WireType, found: WireType)
        /// A required field was absent.
        case missingField
        /// A value was well-formed but not allowed (e.g. an integer out of range).
        case invalidValue(String)
    }

    /// The error `reason` names, at `tag`.
    @available(*, deprecated, message: "use the static factories: .truncated(tag:), .invalidValue(_:tag:), …")
    public init(_ reason: Reason, tag: UInt32? = nil) {
        let error: WireDecodingError =
            switch reason {
            case .truncated: .truncated(tag: tag)
            case .unsupportedWireType(let raw): .unsupportedWireType(raw, tag: tag)
            case .invalidTag(let number): .invalidTag(number)
            case .wrongWireType(let expected, let found): .wrongWireType(expected: expected, found: found, tag: tag)
            case .missingField: .missingField(tag: tag)
            case .invalidValue(let why): .invalidValue(why, tag: tag)
            }
        self = error
    }
}
