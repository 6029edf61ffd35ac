/// The `[services.NAME]` table headers of a manifest's text, with their lines.
///
/// TOMLKit (toml++) keeps a table's keys sorted and drops their positions, so the order the
/// file lists services in, and the lines a duplicate service stands on, come from reading
/// the headers here. TOML itself stays toml++'s job: this reads only header lines, and a
/// line inside a multi-line string that looks like a header may mislead the order, never
/// the values.
struct TableHeaders {
    /// One header: `[services.identity]` or `[services.identity.env]` at `line` (1-based).
    struct Header: Equatable {
        var path: [String]
        var line: Int
    }

    /// Every `[…]` header (not `[[…]]`), in file order.
    var headers: [Header] = []

    /// Reads the headers of `text`.
    init(_ text: String) {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let path = Self.headerPath(line) { headers.append(Header(path: path, line: index + 1)) }
        }
    }

    /// Service names in the order their own `[services.NAME]` header first appears.
    var serviceOrder: [String] {
        var seen: Set<String> = []
        return headers.compactMap { header in
            guard header.path.count >= 2, header.path[0] == "services", seen.insert(header.path[1]).inserted else {
                return nil
            }
            return header.path[1]
        }
    }

    /// Each service whose `[services.NAME]` header appears more than once, with every line it does.
    var duplicateServices: [(name: String, lines: [Int])] {
        var lines: [String: [Int]] = [:]
        var order: [String] = []
        for header in headers where header.path.count == 2 && header.path[0] == "services" {
            if lines[header.path[1]] == nil { order.append(header.path[1]) }
            lines[header.path[1], default: []].append(header.line)
        }
        return order.compactMap { name in lines[name].flatMap { $0.count > 1 ? (name, $0) : nil } }
    }

    /// `text` with each repeated `[services.NAME]` section (its header and the `[services.NAME.…]`
    /// headers right after it) renamed to `renamed(NAME, n)`, so it parses and the rest of the
    /// file can still be checked.
    func renamingDuplicates(in text: String, _ renamed: (String, Int) -> String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var count: [String: Int] = [:]
        var current: (name: String, replacement: String)?
        for header in headers {
            guard header.path.count >= 2, header.path[0] == "services" else {
                current = nil
                continue
            }
            let name = header.path[1]
            if header.path.count == 2 {
                count[name, default: 0] += 1
                current = count[name]! > 1 ? (name, renamed(name, count[name]!)) : nil
            } else if current?.name != name {
                current = nil
            }
            if let current {
                let rest = header.path.dropFirst(2).map { "\"\($0)\"" }
                lines[header.line - 1] =
                    "[" + (["services", "\"\(current.replacement)\""] + rest).joined(separator: ".") + "]"
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The dotted key of a `[a.b."c"]` header line, or nil when the line is not one.
    static func headerPath(_ line: Substring) -> [String]? {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        guard rest.first == "[", rest.dropFirst().first != "[" else { return nil }
        rest = rest.dropFirst()
        var path: [String] = []
        var key = ""
        var quote: Character?
        var sawKey = false
        for character in rest {
            if let open = quote {
                if character == open { quote = nil } else { key.append(character) }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                sawKey = true
            case ".":
                guard sawKey else { return nil }
                path.append(key)
                key = ""
                sawKey = false
            case "]":
                guard sawKey else { return nil }
                path.append(key)
                return path
            case " ", "\t":
                continue
            default:
                key.append(character)
                sawKey = true
            }
        }
        return nil
    }
}
