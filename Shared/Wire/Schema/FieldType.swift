/// The type of one field in a message's schema.
///
/// Each type has one body encoding (docs/PROTOCOL.md, "Body"): `bool`, `uint` and
/// `int` (ZigZag) and `timestamp` (ZigZag microseconds) are varints; `double` is a
/// little-endian fixed64; `string`, `bytes`, `enumeration` (the case name) and
/// `message` (its own body) are length-delimited.
///
/// A nested message is named by a ``MessageReference``, not by a compiled Swift type, so
/// that a schema rebuilt from `describe` (``SchemaCatalog``) is the same kind of value as
/// one written in a contract. Contracts keep writing `.message(Clinic.self)`:
///
/// ```swift
/// .repeated(3, "hours", .message(OpeningHours.self))    // a compiled message
/// .required(4, "service", .enumeration(Service.schema))
/// .optional(5, "parent", .message(named: "test.Node"))  // by name, bound by a SchemaCatalog
/// ```
///
/// Two types are equal when they encode alike and name the same enumeration or message:
/// a reference compares by name, never by walking into the message (which may be recursive).
public enum FieldType: Sendable, Equatable, CustomStringConvertible {
    case bool
    case int
    case uint
    case double
    case string
    case bytes
    case timestamp
    case enumeration(EnumSchema)
    case message(MessageReference)

    /// A field holding a compiled message type. Its schema is read only when first needed,
    /// so a message may refer to itself or to one declared later.
    public static func message(_ type: any WireMessage.Type) -> FieldType {
        .message(MessageReference(type))
    }

    /// A field holding the message called `name`, to be found in the ``SchemaCatalog`` the
    /// schema is put in.
    public static func message(named name: String) -> FieldType {
        .message(MessageReference(named: name))
    }

    /// The body wire type this field type is encoded with.
    public var wireType: WireType {
        switch self {
        case .bool, .int, .uint, .timestamp: .varint
        case .double: .fixed64
        case .string, .bytes, .enumeration, .message: .lengthDelimited
        }
    }

    /// Whether a field of this type may have a bound in bytes (``FieldDescriptor/maxBytes``):
    /// a string, bytes or an enumeration (its name).
    public var canBeBounded: Bool {
        switch self {
        case .string, .bytes, .enumeration: true
        default: false
        }
    }

    /// The type's name in `describe` and the lock file: `string`, `enum shop.Category`, `message shop.Item`.
    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .uint: "uint"
        case .double: "double"
        case .string: "string"
        case .bytes: "bytes"
        case .timestamp: "timestamp"
        case .enumeration(let schema): "enum \(schema.name)"
        case .message(let reference): "message \(reference.name)"
        }
    }
}

/// How a field's value is laid out in the body; the low three bits of a field key.
public enum WireType: UInt8, Sendable {
    /// A varint follows.
    case varint = 0
    /// Eight little-endian bytes follow.
    case fixed64 = 1
    /// A varint length, then that many bytes.
    case lengthDelimited = 2
    /// Four little-endian bytes follow (never written; skipped when read).
    case fixed32 = 5
}
