/// Why a body could not be decoded, and where: the message and field path.
///
/// Decoders throw it with field tags; ``WireMessage/init(decoding:)`` resolves the
/// tags to names through the schema, so the message reads like
/// `clinics.NearestInput.limit: expected varint, found lengthDelimited`.
///
/// Compare ``code`` with the static members of ``Code``; new codes may be added.
public struct WireDecodingError: CodedError {
    /// What went wrong.
    public typealias Code = ErrorKind<WireDecodingError>

    /// What went wrong.
    public let code: Code
    /// What went wrong at the field, in words, without its place: `expected varint, found fixed64`.
    public let message: String
    /// Field tags from the outermost message inward.
    public var tagPath: [UInt32]
    /// The resolved path, e.g. `shop.Item.prices.cents`, once known.
    public var fieldPath: String?

    /// An error of `code` saying `message`, at `tag` (or about the whole message when `tag` is nil).
    @inlinable
    public init(_ code: Code, _ message: String, tag: UInt32? = nil) {
        self.code = code
        self.message = message
        self.tagPath = tag.map { [$0] } ?? []
        self.fieldPath = nil
    }

    /// The body ended inside field `tag`.
    public static func truncated(tag: UInt32? = nil) -> WireDecodingError {
        WireDecodingError(.truncated, "the body ends inside this field", tag: tag)
    }

    /// Field `tag`'s key named wire type `raw`, which does not exist.
    public static func unsupportedWireType(_ raw: UInt8, tag: UInt32? = nil) -> WireDecodingError {
        WireDecodingError(.unsupportedWireType, "unsupported wire type \(raw)", tag: tag)
    }

    /// A field key named `tag`: 0, or past 2^29-1.
    public static func invalidTag(_ tag: UInt64) -> WireDecodingError {
        WireDecodingError(.invalidTag, "invalid field tag \(tag)")
    }

    /// Field `tag` arrived as `found`, where its schema says `expected`.
    public static func wrongWireType(expected: WireType, found: WireType, tag: UInt32? = nil) -> WireDecodingError {
        WireDecodingError(.wrongWireType, "expected \(expected), found \(found)", tag: tag)
    }

    /// Required field `tag` was absent.
    public static func missingField(tag: UInt32? = nil) -> WireDecodingError {
        WireDecodingError(.missingField, "required field is missing", tag: tag)
    }

    /// Field `tag` was well-formed but not allowed, for `why`.
    public static func invalidValue(_ why: String, tag: UInt32? = nil) -> WireDecodingError {
        WireDecodingError(.invalidValue, why, tag: tag)
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
        let place =
            fieldPath ?? (tagPath.isEmpty ? "body" : "field #" + tagPath.map(String.init).joined(separator: "."))
        return "\(place): \(message)"
    }
}

extension ErrorKind where Domain == WireDecodingError {
    /// The body ended inside a field.
    public static var truncated: Self { Self("truncated") }
    /// A field key named a wire type that does not exist.
    public static var unsupportedWireType: Self { Self("unsupportedWireType") }
    /// A field key named tag 0 or a tag past 2^29-1.
    public static var invalidTag: Self { Self("invalidTag") }
    /// A known field arrived with another wire type than its schema's.
    public static var wrongWireType: Self { Self("wrongWireType") }
    /// A required field was absent.
    public static var missingField: Self { Self("missingField") }
    /// A value was well-formed but not allowed (e.g. an integer out of range).
    public static var invalidValue: Self { Self("invalidValue") }
}
