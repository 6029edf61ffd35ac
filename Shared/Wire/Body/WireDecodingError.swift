/// Why a body could not be decoded, and where: the message and field path.
///
/// Decoders throw it with field tags; ``WireMessage/init(decoding:)`` resolves the
/// tags to names through the schema, so the message reads like
/// `clinics.NearestInput.limit: expected varint, found lengthDelimited`.
public struct WireDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
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

    /// What went wrong.
    public let reason: Reason
    /// Field tags from the outermost message inward.
    public var tagPath: [UInt32]
    /// The resolved path, e.g. `clinics.Clinic.hours.opens`, once known.
    public var fieldPath: String?

    /// Creates an error at `tag` (or about the whole message when `tag` is nil).
    @inlinable
    public init(_ reason: Reason, tag: UInt32? = nil) {
        self.reason = reason
        self.tagPath = tag.map { [$0] } ?? []
        self.fieldPath = nil
    }

    /// The same error, seen from the message that holds field `tag`.
    @inlinable
    public func inside(_ tag: UInt32) -> WireDecodingError {
        var copy = self
        copy.tagPath.insert(tag, at: 0)
        return copy
    }

    /// The same error with its tag path resolved to field names through `schema`.
    public func resolved(in schema: MessageSchema) -> WireDecodingError {
        var copy = self
        var names = [schema.name]
        var current: MessageSchema? = schema
        for tag in tagPath {
            if let field = current?.field(tag: tag) {
                names.append(field.name)
                if case .message(let type) = field.type { current = type.schema } else { current = nil }
            } else {
                names.append("#\(tag)")
                current = nil
            }
        }
        copy.fieldPath = names.joined(separator: ".")
        return copy
    }

    public var description: String {
        let place = fieldPath ?? (tagPath.isEmpty ? "body" : "field #" + tagPath.map(String.init).joined(separator: "."))
        switch reason {
        case .truncated: return "\(place): the body ends inside this field"
        case .unsupportedWireType(let raw): return "\(place): unsupported wire type \(raw)"
        case .invalidTag(let tag): return "\(place): invalid field tag \(tag)"
        case .wrongWireType(let expected, let found):
            return "\(place): expected \(expected), found \(found)"
        case .missingField: return "\(place): required field is missing"
        case .invalidValue(let why): return "\(place): \(why)"
        }
    }
}
