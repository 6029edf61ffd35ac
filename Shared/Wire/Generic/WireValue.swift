/// A field value of any type, as plain data: what the generic codec reads from a body,
/// writes back, and turns into JSON.
///
/// The generic codec is driven by a ``MessageSchema`` instead of compiled code, so tools
/// (`describe`, `call`, the JSON form, old fixtures) can handle any message. It is the
/// general path, not the fast one: daemons encode and decode with each message's direct
/// ``WireMessage/encode(to:)`` and ``WireMessage/init(from:)``.
///
/// ```swift
/// let value = try MessageValue(decoding: body, as: Identity.LoginInput.schema)
/// value[1]  // .string("ada@example.org")
/// ```
public enum WireValue: Sendable, Hashable {
    /// A `bool` field.
    case bool(Bool)
    /// An `int` field (ZigZag varint on the wire).
    case int(Int64)
    /// A `uint` field (plain varint on the wire).
    case uint(UInt64)
    /// A `double` field (little-endian fixed64 on the wire).
    case double(Double)
    /// A `string` field.
    case string(String)
    /// A `bytes` field.
    case bytes([UInt8])
    /// A `timestamp` field.
    case timestamp(Timestamp)
    /// An `enumeration` field, by the name of its case, known to this build or not.
    case enumeration(String)
    /// A nested message.
    case message(MessageValue)
    /// Every element of a repeated field, in order.
    case list([WireValue])

    /// A few words naming this value's kind, for error messages: `a string`, `a list`.
    public var kindDescription: String {
        switch self {
        case .bool: "a bool"
        case .int: "an int"
        case .uint: "a uint"
        case .double: "a double"
        case .string: "a string"
        case .bytes: "bytes"
        case .timestamp: "a timestamp"
        case .enumeration: "an enumeration case"
        case .message: "a message"
        case .list: "a list"
        }
    }
}

extension WireValue {
    /// The value a defaulted field takes when it is absent.
    public init(_ defaultValue: DefaultValue) {
        switch defaultValue {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .uint(let value): self = .uint(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .bytes(let value): self = .bytes(value)
        case .timestamp(let value): self = .timestamp(Timestamp(microsecondsSinceEpoch: value))
        case .enumeration(let value): self = .enumeration(value)
        }
    }

    /// Whether this value has the right shape for a single value of `type`
    /// (nested messages are checked when they are encoded).
    public func fits(_ type: FieldType) -> Bool {
        switch (self, type) {
        case (.bool, .bool), (.int, .int), (.uint, .uint), (.double, .double), (.string, .string),
            (.bytes, .bytes), (.timestamp, .timestamp), (.enumeration, .enumeration), (.message, .message):
            true
        default:
            false
        }
    }
}
