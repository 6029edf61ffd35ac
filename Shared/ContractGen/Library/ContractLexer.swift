/// One token of a contract file.
struct Token: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case integer(String)
        case float(String)
        case string(String)
        /// One of `{ } [ ] ( ) ? : = , .`
        case punctuation(Character)
        /// A `///` line, its text after the slashes (and one space).
        case doc(String)
        case end
    }

    var kind: Kind
    var location: SourceLocation
}

/// Splits a contract file into tokens; `//` comments are dropped, `///` lines kept as docs.
struct ContractLexer {
    private let bytes: [UInt8]
    private let path: String
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(text: String, path: String) {
        self.bytes = Array(text.utf8)
        self.path = path
    }

    private var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }

    private func error(_ message: String, at location: SourceLocation) -> ContractDiagnostic {
        ContractDiagnostic(.syntax, path: path, location: location, message: message)
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// Every token, ending with `.end`.
    mutating func tokens() throws(ContractDiagnostic) -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(ContractDiagnostic) -> Token {
        while let byte = peek() {
            if byte == UInt8(ascii: "\n") {
                index += 1
                line += 1
                lineStart = index
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
            } else if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "/") {
                let start = location
                let isDoc = peek(2) == UInt8(ascii: "/") && peek(3) != UInt8(ascii: "/")
                let textStart = index + (isDoc ? 3 : 2)
                while let byte = peek(), byte != UInt8(ascii: "\n") { index += 1 }
                if isDoc {
                    var end = index
                    if end > textStart && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 } // a CRLF line's end
                    try refuseControlCharacters(in: textStart..<end, what: "a doc comment")
                    var text = String(decoding: bytes[textStart..<index], as: UTF8.self)
                    if text.hasPrefix(" ") { text.removeFirst() }
                    while text.last == " " || text.last == "\r" { text.removeLast() }
                    return Token(kind: .doc(text), location: start)
                }
            } else {
                break
            }
        }
        let start = location
        guard let byte = peek() else { return Token(kind: .end, location: start) }
        if Self.isIdentifierStart(byte) {
            let from = index
            while let byte = peek(), Self.isIdentifierStart(byte) || Self.isDigit(byte) { index += 1 }
            return Token(kind: .identifier(String(decoding: bytes[from..<index], as: UTF8.self)), location: start)
        }
        if Self.isDigit(byte) || (byte == UInt8(ascii: "-") && peek(1).map(Self.isDigit) == true) {
            return number(at: start)
        }
        if byte == UInt8(ascii: "\"") { return try string(at: start) }
        if "{}[]()?:=,.".utf8.contains(byte) {
            index += 1
            return Token(kind: .punctuation(Character(Unicode.Scalar(byte))), location: start)
        }
        let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).unicodeScalars.first
        throw error("unexpected character '\(scalar.map { String($0) } ?? "?")'", at: start)
    }

    private mutating func number(at start: SourceLocation) -> Token {
        let from = index
        var isFloat = false
        if peek() == UInt8(ascii: "-") { index += 1 }
        while let byte = peek() {
            if Self.isDigit(byte) || byte == UInt8(ascii: "_") {
                index += 1
            } else if byte == UInt8(ascii: "."), peek(1).map(Self.isDigit) == true {
                isFloat = true
                index += 1
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isFloat = true
                index += 1
                if peek() == UInt8(ascii: "-") || peek() == UInt8(ascii: "+") { index += 1 }
            } else {
                break
            }
        }
        let text = String(decoding: bytes[from..<index], as: UTF8.self)
        return Token(kind: isFloat ? .float(text) : .integer(text), location: start)
    }

    private mutating func string(at start: SourceLocation) throws(ContractDiagnostic) -> Token {
        index += 1
        var value: [UInt8] = []
        while let byte = peek() {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return Token(kind: .string(String(decoding: value, as: UTF8.self)), location: start)
            case UInt8(ascii: "\n"):
                throw error("unterminated string: close it with \" on the same line", at: start)
            case _ where Self.controlLength(bytes, at: index - 1) > 0:
                throw error(
                    "a control character (\(Self.shownControl(bytes, at: index - 1))) in a string: write \\n or \\t, "
                        + "or remove it",
                    at: SourceLocation(line: line, column: index - lineStart))
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { break }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): value.append(escaped)
                case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): value.append(UInt8(ascii: "\t"))
                default:
                    throw error(
                        "unknown escape '\\\(Character(Unicode.Scalar(escaped)))': use \\\", \\\\, \\n or \\t",
                        at: SourceLocation(line: line, column: index - lineStart - 1))
                }
            default:
                value.append(byte)
            }
        }
        throw error("unterminated string: close it with \"", at: start)
    }

    /// Refuses a control character in `range`: the text of a doc comment, which the generated
    /// Swift repeats in a comment that a carriage return would end.
    private func refuseControlCharacters(in range: Range<Int>, what: String) throws(ContractDiagnostic) {
        var at = range.lowerBound
        while at < range.upperBound {
            let length = Self.controlLength(bytes, at: at)
            if length > 0 {
                throw error(
                    "a control character (\(Self.shownControl(bytes, at: at))) in \(what): only tab may appear; "
                        + "remove it or start a new /// line",
                    at: SourceLocation(line: line, column: at - lineStart + 1))
            }
            at += 1
        }
    }

    /// The UTF-8 length of the control character at `at` (C0 but tab, DEL, C1, U+2028, U+2029), or 0.
    static func controlLength(_ bytes: [UInt8], at: Int) -> Int {
        let byte = bytes[at]
        if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7f { return 1 }
        if byte == 0xc2, at + 1 < bytes.count, (0x80...0x9f).contains(bytes[at + 1]) { return 2 }
        if byte == 0xe2, at + 2 < bytes.count, bytes[at + 1] == 0x80, bytes[at + 2] == 0xa8 || bytes[at + 2] == 0xa9 {
            return 3
        }
        return 0
    }

    /// The control character at `at` as `U+000D`.
    private static func shownControl(_ bytes: [UInt8], at: Int) -> String {
        let scalar = String(decoding: bytes[at..<(at + controlLength(bytes, at: at))], as: UTF8.self).unicodeScalars
            .first
        let digits = String(scalar?.value ?? 0, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
