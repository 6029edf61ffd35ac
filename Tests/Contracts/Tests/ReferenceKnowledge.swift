import Foundation
import VerticalsContractTesting

/// What names the reference suite in the framework's code and tests: a vertical's name as a
/// string, its daemon or user, its types and settings, a user-model field. The word list is the
/// reference suite's own, so it lives beside its contract tests, never in a framework target.
enum ReferenceKnowledge {
    /// What in `line` of framework code names the reference suite, or nil. Comments may show the
    /// example. In a test (`inTest`), a vertical's name also may not open a string, a path's part
    /// or an address (`"clinics.nearest"`, `/run/verticals/identity.sock`, `tcp:identity.internal`):
    /// a test's strings are its fixtures, where the framework's code keeps examples in help text.
    static func match(in line: String, inTest: Bool = false) throws -> String? {
        try match(in: line, inTest: inTest, with: Patterns())
    }

    private static func match(in line: String, inTest: Bool, with patterns: Patterns) -> String? {
        let code = line.trimmingCharacters(in: .whitespaces)
        // A command's own name (`svc-supervisor password`) is the CLI's word, not a field.
        guard !code.hasPrefix("//"), !code.hasPrefix("*"), !code.hasPrefix("/*"), !code.hasPrefix("commandName:") else {
            return nil
        }
        guard mayName(line, words: codeWords) else { return nil }
        for pattern in inTest ? patterns.code + patterns.test : patterns.code {
            if let match = line.firstMatch(of: pattern) { return String(line[match.range]) }
        }
        return nil
    }

    /// What in the text of a string literal of framework code (`literal`, interpolations left out)
    /// uses a vertical of the reference suite as a name, or nil: an operation (`identity.login`),
    /// a possessive (`identity's`), an example (`e.g. clinics`), its daemon (`svc-clinics`), or
    /// the two names that are no English word a framework would use (`clinics`, `appointments`).
    /// Plain English stays allowed: "a caller with no identity", "log records", "notifications".
    static func matchInString(_ literal: String) throws -> String? {
        try matchInString(literal, with: Patterns())
    }

    private static func matchInString(_ literal: String, with patterns: Patterns) -> String? {
        guard mayName(literal, words: verticals) else { return nil }
        for pattern in patterns.strings {
            if let match = literal.firstMatch(of: pattern) { return String(literal[match.range]) }
        }
        return nil
    }

    /// The reference suite's verticals, as the patterns spell them.
    private static let names = "identity|clinics|appointments|records|notifications"
    private static let verticals = names.split(separator: "|").map(String.init)
    /// Every pattern of ``match(in:inTest:)`` spells one of these, in some case.
    private static let codeWords = verticals + ["email", "password", "displayname", "role"]

    /// Whether `text` holds one of `words` (lowercase), in any case: a line without one cannot
    /// match, and most lines have none, so they skip the patterns.
    private static func mayName(_ text: String, words: [String]) -> Bool {
        let lowered = text.lowercased()
        return words.contains { lowered.contains($0) }
    }

    /// The patterns, each list in the order its patterns are tried, compiled once for a whole
    /// scan: compiling them for each line took most of a scan's time.
    private struct Patterns {
        /// ``match(in:inTest:)``'s.
        let code: [Regex<AnyRegexOutput>]
        /// What ``match(in:inTest:)`` tries after `code` in a test.
        let test: [Regex<AnyRegexOutput>]
        /// ``matchInString(_:)``'s.
        let strings: [Regex<AnyRegexOutput>]

        init() throws {
            let names = ReferenceKnowledge.names
            let types = "Identity|Clinics|Appointments|Records|Notifications"
            code = try Self.compiled([
                "\"(\(names))\"", "\\b(svc|verticals)-(\(names))\\b", "\\b(\(types))(Service)?\\.\\w",
                "\\b(\(types))Service\\b",
                "\\b(\(names.uppercased()))_[A-Z]", "\"(email|password|displayName|role|roles)\"", "\\bemail\\b",
            ])
            test = try Self.compiled(["[\"/:](\(names))\\b"])
            strings = try Self.compiled([
                "\\b(\(names))\\.[a-z]", "\\b(\(names))'s\\b", "\\be\\.g\\.,? `?(\(names))\\b",
                "\\b(svc|verticals)-(\(names))\\b",
                "\\b(clinics|appointments|Clinics|Appointments)\\b",
            ])
        }

        /// `patterns` as regular expressions with simple word boundaries: Unicode's keep
        /// `records.sock` one word, so `\b` would not end `records`.
        private static func compiled(_ patterns: [String]) throws -> [Regex<AnyRegexOutput>] {
            try patterns.map { try Regex($0).wordBoundaryKind(.simple) }
        }
    }

    /// The text of each string literal of Swift `source`, with its line number: a `"…"` literal
    /// and each line of a multi-line one, interpolations (`\(…)`, `\#(…)`) left out. Comments are skipped.
    static func stringLiterals(in source: String) -> [(line: Int, text: String)] {
        var found: [(line: Int, text: String)] = []
        var inMultiLine = false
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if inMultiLine {
                if code.hasPrefix("\"\"\"") {
                    inMultiLine = false
                } else {
                    found.append((index + 1, withoutInterpolations(String(line))))
                }
                continue
            }
            if code.hasPrefix("//") { continue }
            if code.hasSuffix("\"\"\"") && !code.hasPrefix("\"\"\"") {
                inMultiLine = true
                continue
            }
            // Single-line literals: from a quote to the next unescaped one, up to a comment.
            var text: String?
            var escaped = false
            var previous: Character?
            for character in code {
                defer { previous = character }
                if text == nil && character == "/" && previous == "/" { break }
                if var open = text {
                    if escaped {
                        escaped = false
                        open.append(character)
                    } else if character == "\\" {
                        escaped = true
                        open.append(character)
                    } else if character == "\"" {
                        found.append((index + 1, withoutInterpolations(open)))
                        text = nil
                        continue
                    } else {
                        open.append(character)
                    }
                    text = open
                } else if character == "\"" {
                    text = ""
                }
            }
        }
        return found
    }

    /// `literal` without its interpolations: `\(identity.user)` is code, not text.
    private static func withoutInterpolations(_ literal: String) -> String {
        let literal = literal.replacing("\\#(", with: "\\(")
        var text = ""
        var depth = 0
        var previous: Character?
        for character in literal {
            if depth > 0 {
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            } else if character == "(" && previous == "\\" {
                text.removeLast()
                depth = 1
            } else {
                text.append(character)
            }
            previous = character
        }
        return text
    }

    /// Every line of the Swift, contract and template files of `targets` (their paths relative to `root`)
    /// that names the reference suite, as `path:line: what`; `inTest`: they are tests (``match(in:inTest:)``).
    /// In framework code (not `inTest`), the text of its string literals and templates too (``matchInString(_:)``).
    static func lines(in targets: [VerticalRule.Target], root: String, inTest: Bool = false) throws -> [String] {
        let patterns = try Patterns()
        var found: [String] = []
        for target in targets {
            let folder = "\(root)/\(target.path)"
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where [".swift", ".vcontract", ".template"].contains(where: file.hasSuffix) {
                let text = (try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)) ?? ""
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if let hit = match(in: String(line), inTest: inTest, with: patterns) {
                        found.append("\(target.path)/\(file):\(number + 1): \(hit)")
                    }
                }
                guard !inTest, !file.hasSuffix(".vcontract") else { continue }
                // A template is text a product receives: every line of it is read as a string's.
                let literals =
                    file.hasSuffix(".template")
                    ? text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
                        ($0 + 1, String($1))
                    }
                    : stringLiterals(in: text)
                for (number, literal) in literals {
                    if let hit = matchInString(literal, with: patterns),
                        !found.contains(where: { $0.hasPrefix("\(target.path)/\(file):\(number):") })
                    {
                        found.append("\(target.path)/\(file):\(number): \(hit) (in a string)")
                    }
                }
            }
        }
        return found
    }
}
