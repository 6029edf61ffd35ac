/// One field of a message schema: its tag, name, type, presence and bound. Data, not behaviour.
///
/// The tag identifies the field on the wire and never changes; the name is its JSON
/// key. Presence says what a reader does when the field is absent. A string, bytes or
/// enumeration field may have a bound (``maxBytes``), which every decoder enforces.
public struct FieldDescriptor: Sendable, Equatable, CustomStringConvertible {
    /// The field's number on the wire (1...2^29-1); never reused for another field.
    public let tag: UInt32
    /// The field's name, used as its JSON key.
    public let name: String
    /// The field's value type.
    public let type: FieldType
    /// Whether the field must be present, may be absent, has a default, or repeats.
    public let presence: Presence
    /// One line for `describe`.
    public let doc: String
    /// The most bytes a value may have: the UTF-8 of a string, the bytes of `bytes`, an
    /// enumeration's name; each element of a repeated field. Nil: no bound but the frame's.
    /// Only for string, bytes and enumeration fields.
    public let maxBytes: Int?
    /// Whether the value must not be shown or kept where others may read it (a password): a tool
    /// that asks a person for it does not echo it, and keeps it out of its history and logs. The
    /// contract language writes it `secret` after the field's type.
    public let secret: Bool

    /// What a reader does when a field is absent.
    public enum Presence: Sendable, Equatable, CustomStringConvertible {
        /// The field must be present; its absence is an `invalidInput` error.
        case required
        /// The field may be absent (`nil`).
        case optional
        /// The field takes this value when absent, so adding it is compatible.
        case defaulted(DefaultValue)
        /// The field appears zero or more times, in order (absent = empty list).
        case repeated

        public var description: String {
            switch self {
            case .required: "required"
            case .optional: "optional"
            case .defaulted(let value): "default \(value)"
            case .repeated: "repeated"
            }
        }
    }

    /// Creates a field descriptor; `maxBytes`, when given, is at least 1 and the type is a
    /// string, bytes or an enumeration (a description read from a peer is checked first).
    public init(
        tag: UInt32, name: String, type: FieldType, presence: Presence, maxBytes: Int? = nil, doc: String = "",
        secret: Bool = false
    ) {
        precondition(tag > 0 && tag < 1 << 29, "field tags are 1...2^29-1")
        precondition(
            maxBytes.map { $0 > 0 && type.canBeBounded } ?? true, "\(name): a bound is for text and bytes, at least 1")
        self.tag = tag
        self.name = name
        self.type = type
        self.presence = presence
        self.maxBytes = maxBytes
        self.doc = doc
        self.secret = secret
    }

    /// This field, marked ``secret``.
    public var markedSecret: Self {
        Self(tag: tag, name: name, type: type, presence: presence, maxBytes: maxBytes, doc: doc, secret: true)
    }

    /// A field that must be present.
    public static func required(
        _ tag: UInt32, _ name: String, _ type: FieldType, maxBytes: Int? = nil, doc: String = ""
    ) -> Self {
        Self(tag: tag, name: name, type: type, presence: .required, maxBytes: maxBytes, doc: doc)
    }

    /// A field that may be absent.
    public static func optional(
        _ tag: UInt32, _ name: String, _ type: FieldType, maxBytes: Int? = nil, doc: String = ""
    ) -> Self {
        Self(tag: tag, name: name, type: type, presence: .optional, maxBytes: maxBytes, doc: doc)
    }

    /// A field that takes `value` when absent.
    public static func defaulted(
        _ tag: UInt32, _ name: String, _ type: FieldType, _ value: DefaultValue, maxBytes: Int? = nil, doc: String = ""
    ) -> Self {
        Self(tag: tag, name: name, type: type, presence: .defaulted(value), maxBytes: maxBytes, doc: doc)
    }

    /// A list of values.
    public static func repeated(
        _ tag: UInt32, _ name: String, _ type: FieldType, maxBytes: Int? = nil, doc: String = ""
    ) -> Self {
        Self(tag: tag, name: name, type: type, presence: .repeated, maxBytes: maxBytes, doc: doc)
    }

    public var description: String {
        "\(tag) \(name): \(type) (\(presence)\(maxBytes.map { ", at most \($0) bytes" } ?? ""))"
    }

    /// Why `value` (this field's, or one element of it) is over the field's bound; nil when it
    /// is not, or the field has none.
    public func boundProblem(_ value: WireValue) -> String? {
        guard let maxBytes else { return nil }
        let length: Int
        switch value {
        case .string(let text), .enumeration(let text): length = text.utf8.count
        case .bytes(let bytes): length = bytes.count
        default: return nil
        }
        return length > maxBytes ? BodyReader.overBound(length, maxBytes) : nil
    }
}

/// The value a defaulted field takes when absent.
public enum DefaultValue: Sendable, Equatable, CustomStringConvertible {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case timestamp(Int64)
    case enumeration(String)

    public var description: String {
        switch self {
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .uint(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .bytes(let value): "bytes(\(value.count))"
        case .timestamp(let value): "\(value)us"
        case .enumeration(let value): value
        }
    }
}
