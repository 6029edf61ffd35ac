/// Reads a unit file back as systemd does (systemd.syntax(7)): lines end at a line feed, a
/// carriage return or NUL; a line ending in `\` continues on the next; a value is split into
/// words by blanks, each word's quotes removed and C escapes undone; `%%` is one `%`.
///
/// Enough of systemd's reader to check a value written by the export is read back as itself:
/// `systemd-analyze verify` says whether systemd accepts the unit, this what it reads.
enum SystemdUnitReader {
    /// Why `unit` would not be read line by line as written: a raw carriage return or NUL (each
    /// ends a line for systemd), or a line that continues onto the next.
    static func lineProblems(_ unit: String) -> [String] {
        var problems: [String] = []
        if unit.unicodeScalars.contains("\r") { problems.append("a raw carriage return") }
        if unit.unicodeScalars.contains("\u{0}") { problems.append("a raw NUL") }
        for line in unit.split(separator: "\n") where !line.hasPrefix("#") && line.hasSuffix("\\") {
            problems.append("a line continued onto the next: \(line)")
        }
        return problems
    }

    /// The raw value of every `key=` line, in order.
    static func values(_ key: String, in unit: String) -> [String] {
        unit.split(separator: "\n").compactMap { line in
            line.hasPrefix("\(key)=") ? String(line.dropFirst(key.count + 1)) : nil
        }
    }

    /// `value` split into words as systemd's `extract_first_word(…, EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE)`
    /// does, or nil where it would fail (an unknown escape, an unterminated quote).
    static func words(_ value: String) -> [String]? {
        var words: [String] = []
        var scalars = Array(value.unicodeScalars)[...]
        while true {
            while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
            guard !scalars.isEmpty else { return words }
            var word = ""
            var quote: Unicode.Scalar? = nil
            while let scalar = scalars.first {
                if quote == nil && (scalar == " " || scalar == "\t") { break }
                scalars.removeFirst()
                if scalar == "\\" {
                    guard let escaped = unescape(&scalars) else { return nil }
                    word.unicodeScalars.append(escaped)
                } else if let open = quote, scalar == open {
                    quote = nil
                } else if quote == nil && (scalar == "\"" || scalar == "'") {
                    quote = scalar
                } else {
                    word.unicodeScalars.append(scalar)
                }
            }
            if quote != nil { return nil }
            words.append(word)
        }
    }

    /// `text` with each `%%` as `%`; `%d` (the credentials folder, the one specifier the export
    /// writes) is kept; nil if another specifier appears.
    static func unescapingSpecifiers(_ text: String) -> String? {
        var out = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "%" {
                let next = scalars.popFirst()
                if next == "d" { out += "%d"; continue }
                guard next == "%" else { return nil }
            }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    private static func unescape(_ scalars: inout ArraySlice<Unicode.Scalar>) -> Unicode.Scalar? {
        guard let escaped = scalars.popFirst() else { return nil }
        switch escaped {
        case "\\", "\"", "'": return escaped
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "a": return "\u{7}"
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "v": return "\u{B}"
        case "s": return " "
        case "x":
            guard scalars.count >= 2, let value = UInt32(String(String.UnicodeScalarView(scalars.prefix(2))), radix: 16)
            else { return nil }
            scalars.removeFirst(2)
            return Unicode.Scalar(value)
        default: return nil
        }
    }
}
