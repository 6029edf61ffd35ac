/// Parses one `.vcontract` file (grammar in docs/CONTRACTS.md):
///
/// ```
/// contract clinics
///
/// /// The Input of ``Clinics/search``.
/// message SearchInput {
///     /// Text the clinic's name must contain, ignoring case.
///     1 name: string
///     /// The page size, 1...100.
///     2 limit: int = 20
///     /// Where to continue; absent for the first page.
///     3 cursor: string?
/// }
/// ```
///
/// Only the syntax is checked here; names, types, tags and defaults are checked across every
/// contract of the target by ``ContractChecker``.
public struct ContractParser {
    private var tokens: [Token]
    private var position = 0
    private let path: String

    /// Parses `text`, read from `path`; throws the first syntax error.
    public static func parse(_ text: String, path: String) throws(ContractDiagnostic) -> ContractFile {
        var lexer = ContractLexer(text: text, path: path)
        var parser = ContractParser(tokens: try lexer.tokens(), path: path)
        return try parser.file()
    }

    private init(tokens: [Token], path: String) {
        self.tokens = tokens
        self.path = path
    }

    private var current: Token { tokens[position] }

    private mutating func advance() -> Token {
        defer { if position < tokens.count - 1 { position += 1 } }
        return current
    }

    private func error(_ message: String, at location: SourceLocation? = nil) -> ContractDiagnostic {
        ContractDiagnostic(.syntax, path: path, location: location ?? current.location, message: message)
    }

    private var currentText: String {
        switch current.kind {
        case .identifier(let text), .integer(let text), .float(let text): "'\(text)'"
        case .string: "a string"
        case .punctuation(let character): "'\(character)'"
        case .doc: "a /// comment"
        case .end: "the end of the file"
        }
    }

    private mutating func file() throws(ContractDiagnostic) -> ContractFile {
        if case .doc = current.kind {
            throw error("a /// comment documents the message, enum, field or case below it; use // for the file")
        }
        guard case .identifier("contract") = current.kind else {
            throw error("expected 'contract NAME' first (e.g. `contract payments`), found \(currentText)")
        }
        _ = advance()
        let location = current.location
        let name = try identifier("the contract's name")
        guard name.first.map({ $0.isLowercase }) == true else {
            throw error("a contract's name is its wire name, in lower camel case (e.g. `payments`)", at: location)
        }
        var declarations: [Declaration] = []
        while true {
            let doc = docs()
            if case .end = current.kind {
                if !doc.isEmpty { throw error("a /// comment at the end of the file documents nothing") }
                break
            }
            guard case .identifier(let keyword) = current.kind, ["message", "input", "enum"].contains(keyword) else {
                throw error("expected 'message', 'input' or 'enum', found \(currentText)")
            }
            _ = advance()
            switch keyword {
            case "enum": declarations.append(.enumeration(try enumeration(doc)))
            default:
                var declaration = try message(doc)
                declaration.isInput = keyword == "input"
                declarations.append(.message(declaration))
            }
        }
        return ContractFile(path: path, name: name, location: location, declarations: declarations)
    }

    private mutating func docs() -> [String] {
        var lines: [String] = []
        while case .doc(let text) = current.kind {
            lines.append(text)
            _ = advance()
        }
        return lines
    }

    private mutating func identifier(_ what: String) throws(ContractDiagnostic) -> String {
        guard case .identifier(let name) = current.kind else { throw error("expected \(what), found \(currentText)") }
        _ = advance()
        return name
    }

    private mutating func expect(_ character: Character, _ why: String) throws(ContractDiagnostic) {
        guard case .punctuation(character) = current.kind else {
            throw error("expected '\(character)' \(why), found \(currentText)")
        }
        _ = advance()
    }

    private mutating func take(_ character: Character) -> Bool {
        guard case .punctuation(character) = current.kind else { return false }
        _ = advance()
        return true
    }

    private mutating func message(_ doc: [String]) throws(ContractDiagnostic) -> MessageDeclaration {
        let location = current.location
        let name = try identifier("the message's name")
        var conformances: [String] = []
        if take(":") {
            repeat {
                conformances.append(try identifier("a protocol the message conforms to (e.g. Hashable)"))
            } while take(",")
        }
        try expect("{", "to open the message's fields")
        let fields = try untilClosingBrace(of: location) { parser, doc throws(ContractDiagnostic) in
            try parser.field(doc)
        }
        return MessageDeclaration(name: name, doc: doc, conformances: conformances, fields: fields, location: location)
    }

    private mutating func field(_ doc: [String]) throws(ContractDiagnostic) -> FieldDeclaration {
        let location = current.location
        guard case .integer(let tagText) = current.kind else {
            if case .identifier = current.kind {
                throw error(
                    "expected the field's tag before its name (e.g. `1 \(currentText.dropFirst().dropLast()): string`)")
            }
            throw error("expected a field (`TAG NAME: TYPE`) or '}', found \(currentText)")
        }
        _ = advance()
        guard let tag = UInt64(tagText.replacing("_", with: "")) else {
            throw error("a field's tag is a whole number 1...536870911, not \(tagText)", at: location)
        }
        let name = try identifier("the field's name after its tag")
        try expect(":", "between the field's name and its type")
        var presence = FieldPresence.required
        let type: TypeReference
        let bound: (bytes: UInt64, location: SourceLocation)?
        if take("[") {
            type = try typeReference()
            bound = try maxBytes()
            try expect("]", "to close the list type")
            presence = .repeated
        } else {
            type = try typeReference()
            bound = try maxBytes()
        }
        if take("?") {
            guard presence == .required else { throw error("a list is never absent (it is empty): drop the '?'") }
            presence = .optional
        }
        if take("=") {
            guard presence == .required else {
                throw error("a default is for a single value: an optional is nil when absent, a list empty")
            }
            presence = .defaulted(try literal())
        }
        return FieldDeclaration(
            tag: tag, name: name, type: type, maxBytes: bound?.bytes, maxBytesLocation: bound?.location,
            presence: presence, doc: doc, location: location, secret: try fieldMarks())
    }

    /// Whether `secret` ends the field's line (the only mark a field takes).
    private mutating func fieldMarks() throws(ContractDiagnostic) -> Bool {
        // A field is followed by the next one's tag, a `///` line or '}': a word here is a mark.
        guard case .identifier(let word) = current.kind else { return false }
        guard word == "secret" else {
            throw error("a field's line may end with `secret` (a value not to echo or keep), not `\(word)`")
        }
        _ = advance()
        return true
    }

    /// `(maxBytes: N)` after a type, if written.
    private mutating func maxBytes() throws(ContractDiagnostic) -> (bytes: UInt64, location: SourceLocation)? {
        guard take("(") else { return nil }
        guard case .identifier("maxBytes") = current.kind else {
            throw error(
                "expected `maxBytes: N` inside '(' after the type (e.g. `string(maxBytes: 1024)`), found \(currentText)"
            )
        }
        _ = advance()
        try expect(":", "after maxBytes")
        let location = current.location
        guard case .integer(let text) = current.kind, let bytes = UInt64(text.replacing("_", with: "")) else {
            throw error("expected the bound in bytes, a whole number (e.g. `maxBytes: 1024`), found \(currentText)")
        }
        _ = advance()
        try expect(")", "to close the bound")
        return (bytes, location)
    }

    private mutating func typeReference() throws(ContractDiagnostic) -> TypeReference {
        let location = current.location
        let first = try identifier("a type (bool, int, uint, double, string, bytes, timestamp, or a message or enum)")
        if take(".") {
            return TypeReference(
                contract: first, name: try identifier("a type name after '\(first).'"), location: location)
        }
        return TypeReference(contract: nil, name: first, location: location)
    }

    private mutating func literal() throws(ContractDiagnostic) -> Literal {
        let location = current.location
        switch current.kind {
        case .integer(let text):
            _ = advance()
            return .integer(text.replacing("_", with: ""), location)
        case .float(let text):
            _ = advance()
            return .float(text.replacing("_", with: ""), location)
        case .string(let text):
            _ = advance()
            return .string(text, location)
        case .identifier(let text):
            _ = advance()
            return .identifier(text, location)
        default:
            throw error(
                "expected a default value (a number, a \"string\", true, false or an enum case), found \(currentText)")
        }
    }

    private mutating func enumeration(_ doc: [String]) throws(ContractDiagnostic) -> EnumDeclaration {
        let location = current.location
        let name = try identifier("the enum's name")
        try expect("{", "to open the enum's cases")
        let cases = try untilClosingBrace(of: location) { parser, doc throws(ContractDiagnostic) in
            let caseLocation = parser.current.location
            return EnumCase(name: try parser.identifier("a case name or '}'"), doc: doc, location: caseLocation)
        }
        return EnumDeclaration(name: name, doc: doc, cases: cases, location: location)
    }

    /// The items of a `{ … }` body opened at `location`, each read by `item` with the `///` lines
    /// before it, up to and including the closing `}`; a `///` comment before the `}` is an error.
    private mutating func untilClosingBrace<Item>(
        of location: SourceLocation, _ item: (inout ContractParser, [String]) throws(ContractDiagnostic) -> Item
    ) throws(ContractDiagnostic) -> [Item] {
        var items: [Item] = []
        while true {
            let doc = docs()
            if take("}") {
                if !doc.isEmpty { throw error("a /// comment before '}' documents nothing", at: location) }
                return items
            }
            items.append(try item(&self, doc))
        }
    }
}
