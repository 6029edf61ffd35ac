/// The type of one field in a message's schema.
///
/// Each type has one body encoding (docs/PROTOCOL.md, "Body"): `bool`, `uint` and
/// `int` (ZigZag) and `timestamp` (ZigZag microseconds) are varints; `double` is a
/// little-endian fixed64; `string`, `bytes`, `enumeration` (the case name) and
/// `message` (its own body) are length-delimited.
public enum FieldType: Sendable, CustomStringConvertible {
    case bool
    case int
    case uint
    case double
    case string
    case bytes
    case timestamp
    case enumeration(EnumSchema)
    case message(any WireMessage.Type)

    /// The body wire type this field type is encoded with.
    public var wireType: WireType {
        switch self {
        case .bool, .int, .uint, .timestamp: .varint
        case .double: .fixed64
        case .string, .bytes, .enumeration, .message: .lengthDelimited
        }
    }

    /// The type's name in `describe` and the lock file: `string`, `enum clinics.Service`, `message clinics.Clinic`.
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
        case .message(let type): "message \(type.schema.name)"
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
