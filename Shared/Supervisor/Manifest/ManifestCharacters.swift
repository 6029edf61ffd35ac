import VerticalsWire

/// Finds, before the text reaches TOMLKit, the two mistakes toml++ does not survive: a character
/// outside ASCII outside strings and comments, and a table header whose name starts with a
/// character no key starts with (`[é]`, `[+services.b]`).
///
/// toml++ 3 (under TOMLKit) asserts on both: an abort in a debug build, undefined behaviour in
/// a release one (the assertion becomes an assumption). Found by fuzz-manifest. Neither is
/// valid TOML 1.0, so this reports each as the syntax error it is.
enum ManifestCharacters {
    /// "line L, column C: …" for the first such mistake, or nil.
    static func problem(in text: String) -> ManifestError? {
        var line = 1
        var column = 0
        var quote: [UInt8]? = nil // the delimiter of the string we are in: ", ', """ or '''
        var inComment = false
        var atLineStart = true // only whitespace so far on this line (outside strings)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            column += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
                inComment = false
                atLineStart = true
                if let open = quote, open.count == 1 { quote = nil } // a one-line string ends (unterminated)
                index += 1
                continue
            }
            if inComment {
                index += 1
                continue
            }
            if let open = quote {
                if byte == UInt8(ascii: "\\"), open[0] == UInt8(ascii: "\""), isNULEscape(bytes, at: index + 1) {
                    return ManifestError(
                        .syntax,
                        "line \(line), column \(column): a string holds NUL (\\u0000), which no name, path, argument "
                            + "or environment value can hold: remove it",
                        values: [ErrorDetail("line", "\(line)"), ErrorDetail("column", "\(column)")])
                }
                if byte == UInt8(ascii: "\\"), open[0] == UInt8(ascii: "\"") {
                    index += 2 // an escape: skip the escaped byte
                    column += 1
                    continue
                }
                if bytes[index...].starts(with: open) {
                    quote = nil
                    index += open.count
                    column += open.count - 1
                    continue
                }
                index += 1
                continue
            }
            if atLineStart, byte == UInt8(ascii: "["),
                let problem = headerProblem(bytes, at: index, line: line, column: column)
            {
                return problem
            }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") {
                atLineStart = false
            }
            switch byte {
            case UInt8(ascii: "#"):
                inComment = true
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let triple = [byte, byte, byte]
                quote = bytes[index...].starts(with: triple) ? triple : [byte]
                index += quote!.count
                column += quote!.count - 1
                continue
            case 0x80...:
                return ManifestError(
                    .syntax,
                    "line \(line), column \(column): not valid TOML: a character outside ASCII may appear only in a "
                        + "string or a comment (quote the key: \"…\")",
                    values: [ErrorDetail("line", "\(line)"), ErrorDetail("column", "\(column)")])
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// Whether the escape after a backslash at `start` is `u0000` or `U00000000`: NUL, which
    /// toml++ would end the string at, dropping the rest without a word.
    private static func isNULEscape(_ bytes: [UInt8], at start: Int) -> Bool {
        guard start < bytes.count else { return false }
        let digits = bytes[start] == UInt8(ascii: "u") ? 4 : bytes[start] == UInt8(ascii: "U") ? 8 : 0
        guard digits > 0, start + digits < bytes.count else { return false }
        return bytes[(start + 1)...(start + digits)].allSatisfy { $0 == UInt8(ascii: "0") }
    }

    /// The problem with the header that opens at `start` (its `[`), if its name starts wrong.
    private static func headerProblem(_ bytes: [UInt8], at start: Int, line: Int, column: Int) -> ManifestError? {
        var index = start + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "[") { index += 1 }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        guard index < bytes.count else { return nil }
        let first = bytes[index]
        let startsKey =
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]")]
                .contains(first)
        guard !startsKey else { return nil }
        return ManifestError(
            .syntax,
            "line \(line), column \(column + index - start): not valid TOML: a table name starts with a letter, digit, "
                + "'_', '-' or a quote",
            values: [ErrorDetail("line", "\(line)"), ErrorDetail("column", "\(column + index - start)")])
    }
}
