/// One field of a message schema: its tag, name, type and presence. Data, not behaviour.
///
/// The tag identifies the field on the wire and never changes; the name is its JSON
/// key. Presence says what a reader does when the field is absent.
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

    /// Creates a field descriptor.
    public init(tag: UInt32, name: String, type: FieldType, presence: Presence, doc: String = "") {
        precondition(tag > 0 && tag < 1 << 29, "field tags are 1...2^29-1")
        self.tag = tag
        self.name = name
        self.type = type
        self.presence = presence
        self.doc = doc
    }

    /// A field that must be present.
    public static func required(_ tag: UInt32, _ name: String, _ type: FieldType, doc: String = "") -> Self {
        Self(tag: tag, name: name, type: type, presence: .required, doc: doc)
    }

    /// A field that may be absent.
    public static func optional(_ tag: UInt32, _ name: String, _ type: FieldType, doc: String = "") -> Self {
        Self(tag: tag, name: name, type: type, presence: .optional, doc: doc)
    }

    /// A field that takes `value` when absent.
    public static func defaulted(
        _ tag: UInt32, _ name: String, _ type: FieldType, _ value: DefaultValue, doc: String = ""
    ) -> Self {
        Self(tag: tag, name: name, type: type, presence: .defaulted(value), doc: doc)
    }

    /// A list of values.
    public static func repeated(_ tag: UInt32, _ name: String, _ type: FieldType, doc: String = "") -> Self {
        Self(tag: tag, name: name, type: type, presence: .repeated, doc: doc)
    }

    public var description: String { "\(tag) \(name): \(type) (\(presence))" }
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
