/// Why a frame payload did not start with a valid envelope; always a protocol error.
///
/// Compare ``code`` with the static members of ``Code``; new codes may be added.
public struct EnvelopeError: StoredCodedError {
    /// What is wrong with the envelope.
    public typealias Code = ErrorKind<EnvelopeError>

    /// What is wrong, and the message naming the value that was wrong.
    public let storage: CodedErrorStorage<EnvelopeError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<EnvelopeError>) { self.storage = storage }

    /// The payload ended inside the envelope.
    public static let truncated = EnvelopeError(.truncated, "the frame ends inside its envelope")

    /// The version byte was `version`, not 1.
    public static func unsupportedVersion(_ version: UInt8) -> EnvelopeError {
        EnvelopeError(.unsupportedVersion, "envelope version \(version) is not supported (this peer speaks 1)")
    }

    /// The kind byte `kind` names no ``MessageKind``.
    public static func unknownKind(_ kind: UInt8) -> EnvelopeError {
        EnvelopeError(.unknownKind, "envelope kind \(kind) is not one of 1...7")
    }

    /// The operation name was `length` bytes, over ``Envelope/maxOperationLength``.
    public static func operationTooLong(_ length: Int) -> EnvelopeError {
        EnvelopeError(.operationTooLong, "operation name of \(length) bytes exceeds \(Envelope.maxOperationLength)")
    }
}

extension ErrorKind where Domain == EnvelopeError {
    /// The payload ended inside the envelope.
    public static var truncated: Self { Self("truncated") }
    /// The version byte was not 1.
    public static var unsupportedVersion: Self { Self("unsupportedVersion") }
    /// The kind byte named no ``MessageKind``.
    public static var unknownKind: Self { Self("unknownKind") }
    /// The operation name was longer than ``Envelope/maxOperationLength``.
    public static var operationTooLong: Self { Self("operationTooLong") }
}
