extension JSONValue {
    /// How deep arrays and objects may nest before parsing stops with `JSONSyntaxError/Kind/tooDeep`.
    public static let defaultMaxDepth = 100

    /// Parses a JSON text (RFC 8259): any value at the top, surrounded by optional whitespace.
    ///
    /// Strict: no comments, trailing commas, single quotes, leading zeros, `NaN`, or raw
    /// control characters in strings; `\u` surrogates must pair. Nesting is limited to
    /// `maxDepth`, so hostile input cannot exhaust the stack. It never traps and runs in
    /// time linear in the input.
    public init(parsing text: String, maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONSyntaxError) {
        var parser = JSONParser(Array(text.utf8), maxDepth: maxDepth)
        self = try parser.document()
    }

    /// Parses a JSON text given as UTF-8 bytes; invalid UTF-8 in a string is an error.
    public init(parsing utf8: [UInt8], maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONSyntaxError) {
        var parser = JSONParser(utf8, maxDepth: maxDepth)
        self = try parser.document()
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
struct JSONParser {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0
    private var depth = 0

    init(_ bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let result = try value()
        skipWhitespace()
        guard index == bytes.count else {
            throw fail(.trailingCharacters, "unexpected \(describeCurrent()) after the JSON value")
        }
        return result
    }

    // MARK: Values

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = peek() else { throw fail(.unexpectedEnd, "the text ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw expected("a value")
        }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        .object(
            try items(closedBy: "}", after: "an object member") {
                (parser: inout JSONParser) throws(JSONSyntaxError) -> (key: String, value: JSONValue) in
                guard parser.peek() == UInt8(ascii: "\"") else {
                    throw parser.expected("a string key in double quotes")
                }
                let key = try parser.string()
                parser.skipWhitespace()
                guard parser.take(UInt8(ascii: ":")) else { throw parser.expected("':' after an object key") }
                parser.skipWhitespace()
                return (key, try parser.value())
            })
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        .array(
            try items(closedBy: "]", after: "an array element") { parser throws(JSONSyntaxError) in try parser.value() }
        )
    }

    /// The comma-separated items of the array or object whose opening bracket is at `index`, each
    /// read by `item` (from its first non-space byte), up to and past the `close` bracket.
    private mutating func items<Item>(
        closedBy close: Unicode.Scalar, after what: String, _ item: (inout JSONParser) throws(JSONSyntaxError) -> Item
    ) throws(JSONSyntaxError) -> [Item] {
        try enter()
        index += 1
        var items: [Item] = []
        skipWhitespace()
        if !take(UInt8(ascii: close)) {
            while true {
                skipWhitespace()
                items.append(try item(&self))
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                if take(UInt8(ascii: close)) { break }
                throw expected("',' or '\(close)' after \(what)")
            }
        }
        depth -= 1
        return items
    }

    private mutating func literal(_ word: StaticString, _ result: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        for offset in 0..<count {
            let wanted = word.utf8Start[offset]
            guard index < bytes.count else { throw fail(.unexpectedEnd, "the text ends inside '\(word)'") }
            guard bytes[index] == wanted else { throw expected("'\(word)'") }
            index += 1
        }
        return result
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard let first = peek(), isDigit(first) else {
            throw fail(.invalidNumber, "expected a digit in a number, found \(describeCurrent())")
        }
        index += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw fail(.invalidNumber, "a number may not have a leading zero")
        }
        skipDigits()
        if take(UInt8(ascii: ".")) {
            guard let next = peek(), isDigit(next) else {
                throw fail(.invalidNumber, "expected a digit after the decimal point, found \(describeCurrent())")
            }
            skipDigits()
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            guard let next = peek(), isDigit(next) else {
                throw fail(.invalidNumber, "expected a digit in the exponent, found \(describeCurrent())")
            }
            skipDigits()
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    // MARK: Strings

    private mutating func string() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var buffer: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw fail(.unexpectedEnd, "the text ends inside a string", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: bytes[runStart..<index])
                index += 1
                try escape(into: &buffer)
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw fail(.controlCharacter, "a raw control character (byte \(hex(byte))) in a string; escape it")
            }
            index += 1
        }
        buffer.append(contentsOf: bytes[runStart..<index])
        index += 1
        guard let text = String(validating: buffer, as: UTF8.self) else {
            throw fail(.invalidUTF8, "the string is not valid UTF-8", at: start)
        }
        return text
    }

    /// Decodes the escape after a backslash into UTF-8.
    private mutating func escape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = peek() else { throw fail(.unexpectedEnd, "the text ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let escapeStart = index - 2
            let first = try hex4()
            var code = first
            if (0xD800...0xDBFF).contains(first) {
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else {
                    throw fail(
                        .loneSurrogate, "a high surrogate \\u\(hex16(first)) must be followed by a low one",
                        at: escapeStart)
                }
                let second = try hex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw fail(
                        .loneSurrogate, "a high surrogate \\u\(hex16(first)) must be followed by a low one",
                        at: escapeStart)
                }
                code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw fail(.loneSurrogate, "a low surrogate \\u\(hex16(first)) without a high one", at: escapeStart)
            }
            guard let scalar = Unicode.Scalar(code) else {
                throw fail(.invalidEscape, "\\u escape names no Unicode scalar", at: escapeStart)
            }
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            index -= 1
            throw fail(.invalidEscape, "\\\(describeCurrent()) is not a JSON escape")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw fail(.unexpectedEnd, "the text ends inside a \\u escape") }
            guard let digit = hexDigitValue(byte) else {
                throw fail(.invalidEscape, "expected a hex digit in a \\u escape, found \(describeCurrent())")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Helpers

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= maxDepth else {
            throw fail(.tooDeep, "arrays and objects nest deeper than \(maxDepth) levels")
        }
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func expected(_ what: String) -> JSONSyntaxError {
        guard index < bytes.count else { return fail(.unexpectedEnd, "the text ends where \(what) was expected") }
        return fail(.unexpectedCharacter, "expected \(what), found \(describeCurrent())")
    }

    private func describeCurrent() -> String {
        guard let byte = peek() else { return "the end of the text" }
        return byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(hex(byte))"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    private func hex16(_ value: UInt32) -> String {
        String(hex(UInt8(truncatingIfNeeded: value >> 8)).dropFirst(2))
            + String(hex(UInt8(truncatingIfNeeded: value)).dropFirst(2))
    }

    private func fail(_ kind: JSONSyntaxError.Kind, _ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for position in 0..<offset where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONSyntaxError(kind, offset: offset, line: line, column: offset - lineStart + 1, reason: reason)
    }
}
