/// Why a value does not fit its message schema: a JSON document that is not the
/// message's JSON form, or a ``MessageValue`` that cannot be encoded by its schema.
///
/// It names the field from the outermost message inward, with list indexes, and says
/// what was wrong in words a person can act on:
///
/// ```text
/// field "limit": expected an integer, got "abc"
/// field "hours[1].weekday": required field is missing
/// ```
///
/// Its ``message`` is that sentence; the message's schema name and the field's path are also the
/// details `messageName` and `field` (none when it is about the whole message).
public struct WireValueError: CodedError {
    /// The kind of mismatch; compare against the static members. New codes may be added.
    public typealias Code = ErrorKind<WireValueError>

    /// The kind of mismatch.
    public let code: Code
    /// The schema name of the outermost message, e.g. `clinics.SearchInput`.
    public let messageName: String
    /// The field's path from the outermost message, e.g. `hours[1].opens`; empty when
    /// the error is about the whole message.
    public let path: String
    /// What was wrong, e.g. `expected an integer, got "abc"`.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, messageName: String, path: String, reason: String) {
        self.code = code
        self.messageName = messageName
        self.path = path
        self.reason = reason
    }

    /// The error a body decoding failure becomes when it happens on the way to or from JSON.
    public init(_ error: WireDecodingError, messageName: String) {
        var path = error.fieldPath ?? ""
        if path == messageName {
            path = ""
        } else if path.hasPrefix(messageName + ".") {
            path.removeFirst(messageName.count + 1)
        }
        self.init(
            error.code == .missingField ? .missingField : .invalidValue,
            messageName: messageName, path: path, reason: error.message)
    }

    /// What was wrong, naming the field (or the message, when it is about the whole message).
    public var message: String {
        path.isEmpty ? "\(messageName): \(reason)" : "field \"\(path)\": \(reason)"
    }

    /// The message's schema name as `messageName`, and the field's path as `field` when there is one.
    public var details: [ErrorDetail] {
        [ErrorDetail("messageName", messageName)] + (path.isEmpty ? [] : [ErrorDetail("field", path)])
    }
}

extension ErrorKind where Domain == WireValueError {
    /// The text is not JSON (RFC 8259).
    public static var invalidJSON: Self { Self("invalidJSON") }
    /// A value has another type than its field's (e.g. a string for an integer).
    public static var typeMismatch: Self { Self("typeMismatch") }
    /// A value does not fit its field's range (e.g. -1 for a uint, 1e400 for a double, a
    /// timestamp outside years 1 to 9999, a string longer than its field's bound).
    public static var outOfRange: Self { Self("outOfRange") }
    /// A value has the right type but is not valid (e.g. a malformed timestamp).
    public static var invalidValue: Self { Self("invalidValue") }
    /// A key or tag names no field of the message.
    public static var unknownField: Self { Self("unknownField") }
    /// A required field is absent.
    public static var missingField: Self { Self("missingField") }
    /// A field is given more than once.
    public static var duplicateField: Self { Self("duplicateField") }
}
