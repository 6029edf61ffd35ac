/// Why a text is not JSON (RFC 8259), and where: byte offset, line and column.
///
/// ```text
/// line 1, column 12: expected ',' or '}' after an object member
/// ```
///
/// Its ``code`` is its ``kind``; the offset, line and column are also the details `offset`,
/// `line` and `column`.
public struct JSONSyntaxError: CodedError {
    /// The kind of syntax error; compare against the static members. New kinds may be added.
    public typealias Kind = ErrorKind<JSONSyntaxError>
    /// The ``Kind``, by the name every ``CodedError`` gives it.
    public typealias Code = Kind

    /// The kind of syntax error.
    public let kind: Kind
    /// The byte offset of the problem in the UTF-8 text.
    public let offset: Int
    /// The line of the problem, from 1.
    public let line: Int
    /// The column of the problem in bytes, from 1.
    public let column: Int
    /// What was wrong, in words.
    public let reason: String

    /// Creates an error.
    public init(_ kind: Kind, offset: Int, line: Int, column: Int, reason: String) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The ``kind``.
    public var code: Code { kind }

    /// What was wrong, after where: `line 1, column 12: …`.
    public var message: String { "line \(line), column \(column): \(reason)" }

    /// The offset, line and column, as `offset`, `line` and `column`.
    public var details: [ErrorDetail] {
        [
            ErrorDetail("offset", String(offset)), ErrorDetail("line", String(line)),
            ErrorDetail("column", String(column)),
        ]
    }
}

extension ErrorKind where Domain == JSONSyntaxError {
    /// The text ended inside a value.
    public static var unexpectedEnd: Self { Self("unexpectedEnd") }
    /// A character that cannot start or continue the value here.
    public static var unexpectedCharacter: Self { Self("unexpectedCharacter") }
    /// A number that breaks the grammar (leading zero, lone `-`, `1.`, `1e`).
    public static var invalidNumber: Self { Self("invalidNumber") }
    /// A backslash escape that is not one of `\" \\ \/ \b \f \n \r \t \uXXXX`.
    public static var invalidEscape: Self { Self("invalidEscape") }
    /// A `\u` escape of a UTF-16 surrogate without its other half.
    public static var loneSurrogate: Self { Self("loneSurrogate") }
    /// A raw control character (below U+0020) inside a string.
    public static var controlCharacter: Self { Self("controlCharacter") }
    /// Bytes that are not valid UTF-8.
    public static var invalidUTF8: Self { Self("invalidUTF8") }
    /// Arrays and objects nested deeper than the parser's limit.
    public static var tooDeep: Self { Self("tooDeep") }
    /// Something other than whitespace after the document's value.
    public static var trailingCharacters: Self { Self("trailingCharacters") }
}
