/// A JSON document as data (RFC 8259), parsed and printed without Foundation.
///
/// Numbers keep the exact text they were written with, so 64-bit integers survive
/// without passing through a `Double`; objects keep their members in order, duplicates
/// included, so the reader of a document decides what a repeated key means.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"limit": 5}"#)
/// value.serialized()  // {"limit":5}
/// ```
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its text; always matches RFC 8259's number grammar when parsed.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members, in document order.
    case object([(key: String, value: JSONValue)])

    /// An integer number.
    public static func integer(_ value: some BinaryInteger) -> JSONValue {
        .number(String(value))
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// A short rendering for error messages: scalars as written (long ones cut), containers by kind.
    public var briefDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text.count > 40 ? String(text.prefix(40)) + "…" : text
        case .string(let text):
            let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return JSONValue.string(cut).serialized()
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
