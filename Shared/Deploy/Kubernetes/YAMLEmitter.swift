import VerticalsWire

/// Writes ``YAMLNode`` trees as block-style YAML 1.2 (which YAML 1.1 readers such as PyYAML
/// and `kubectl` read the same): two-space indents, sequences of mappings as `- key: value`.
///
/// Why not Yams: the export writes a fixed object model of mappings, sequences, strings,
/// integers and booleans, and only strings need care. A string is written bare only when it is
/// made of characters that cannot start or change YAML syntax and is not a word that YAML 1.1 or
/// 1.2 reads as something else (`yes`, `off`, `null`, `1e3`, `0x1f`, …); anything else is written
/// double-quoted with JSON escapes, a subset of YAML's double-quoted style. A few dozen lines,
/// tested by reading their output back with PyYAML (what `kubernetes-validate` reads it with),
/// instead of a dependency that every build of the package would compile.
///
/// ```swift
/// YAMLEmitter.document(.map([("kind", "Service"), ("port", 7000)]))  // "kind: Service\nport: 7000\n"
/// ```
public enum YAMLEmitter {
    /// `node` as one document's text, ending in a newline.
    public static func document(_ node: YAMLNode) -> String {
        var out = ""
        write(node, indent: 0, into: &out)
        return out
    }

    /// Several documents in one file, separated by `---` lines.
    public static func documents(_ nodes: [YAMLNode]) -> String {
        nodes.map { "---\n" + document($0) }.joined()
    }

    /// `text` as a YAML scalar that reads back as the string `text`.
    public static func scalar(_ text: String) -> String {
        isPlain(text) ? text : quoted(text)
    }

    // MARK: Blocks

    /// Writes `node` (a mapping or sequence as a block, else a scalar line) at `indent` spaces.
    private static func write(_ node: YAMLNode, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch node {
        case .map(let pairs):
            for (key, value) in pairs {
                out += pad + scalar(key) + ":"
                writeValue(value, indent: indent, into: &out)
            }
        case .list(let items):
            for item in items {
                out += pad + "-"
                switch item {
                case .map(let pairs) where !pairs.isEmpty:
                    // The mapping as a block two spaces in, its first line moved onto the dash's.
                    var block = ""
                    write(item, indent: indent + 2, into: &block)
                    out += " " + block.dropFirst(indent + 2)
                case .list(let inner) where !inner.isEmpty:
                    out += "\n"
                    write(item, indent: indent + 2, into: &out)
                default:
                    out += " " + inline(item) + "\n"
                }
            }
        default:
            out += pad + inline(node) + "\n"
        }
    }

    /// After `key:`: a scalar or empty collection on the same line, a block below it.
    private static func writeValue(_ value: YAMLNode, indent: Int, into out: inout String) {
        switch value {
        case .map(let pairs) where !pairs.isEmpty:
            out += "\n"
            write(value, indent: indent + 2, into: &out)
        case .list(let items) where !items.isEmpty:
            // Sequences under a key are indented too (as kubectl writes them).
            out += "\n"
            write(value, indent: indent + 2, into: &out)
        default:
            out += " " + inline(value) + "\n"
        }
    }

    /// A scalar or an empty collection on one line.
    private static func inline(_ node: YAMLNode) -> String {
        switch node {
        case .string(let text): scalar(text)
        case .int(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .map: "{}"
        case .list: "[]"
        }
    }

    // MARK: Scalars

    /// Words that YAML 1.1 (PyYAML, many tools) or 1.2 reads as booleans or null.
    private static let reservedWords: Set<String> = [
        "y", "n", "yes", "no", "true", "false", "on", "off", "null", "~",
    ]

    /// Whether `text` can be written bare: letters, digits and `._/-` only, starting with a
    /// letter or `/`, not a reserved word, and not read as a number (`1e3`, `.inf`, `0x1f` start
    /// with a digit or a dot, which is quoted).
    public static func isPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        guard ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "/" else { return false }
        guard !reservedWords.contains(text.lowercased()) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "._/-".unicodeScalars.contains(scalar)
        }
    }

    /// `text` double-quoted with JSON's escapes (valid YAML double-quoted scalar): the C0 and C1
    /// controls, DEL, the byte-order mark, the Unicode line separators and the two
    /// noncharacters YAML does not print (U+FFFE, U+FFFF) as `\uXXXX`.
    static func quoted(_ text: String) -> String {
        doubleQuoted(text) { scalar in
            let value = scalar.value
            guard
                value < 0x20 || value == 0x7f || (0x80..<0xa0).contains(value)
                    || value == 0xfeff || value == 0x2028 || value == 0x2029 || value == 0xfffe || value == 0xffff
            else { return nil }
            return "\\u" + hex4(value)
        }
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
