/// A field's type once resolved against every contract of the target.
public enum ResolvedType: Sendable, Equatable {
    /// One of Wire's scalar types.
    case scalar(ScalarType)
    /// A message, by contract and name.
    case message(contract: String, name: String)
    /// An enumeration, by contract and name, with its known cases.
    case enumeration(contract: String, name: String, cases: [String])
}

/// Wire's scalar field types (`FieldType` in Wire) and their Swift types.
public enum ScalarType: String, Sendable, CaseIterable {
    case bool, int, uint, double, string, bytes, timestamp

    /// The Swift type of a property of this type.
    public var swiftType: String {
        switch self {
        case .bool: "Bool"
        case .int: "Int"
        case .uint: "UInt64"
        case .double: "Double"
        case .string: "String"
        case .bytes: "[UInt8]"
        case .timestamp: "Timestamp"
        }
    }
}

/// Checks a target's contracts together and resolves their types: the rules a parser alone
/// cannot see (unknown types, duplicate tags and names, tags out of range, defaults that do not
/// fit their type, missing docs). Every problem is a ``ContractDiagnostic`` at its place.
public struct ContractChecker: Sendable {
    /// The contracts, as parsed.
    public let files: [ContractFile]
    private var declarations: [String: [String: Declaration]] = [:]

    /// The largest tag a field may have (2^29 - 1): the key's other three bits are its wire type.
    public static let maxTag: UInt64 = (1 << 29) - 1

    /// The bound, in bytes, of a string, bytes or enumeration field of an `input` that declares
    /// none: 4 KiB. Longer than any name, e-mail address, token, id, cursor or path a caller sends
    /// (Linux's PATH_MAX is 4096 with its NUL), short enough that no request makes a vertical
    /// lower-case, trim or hash megabytes. A longer text (a record's, a notification's body)
    /// declares its own bound.
    public static let defaultMaxBytes: UInt64 = 4096

    /// The largest bound a field may declare (2^32 - 1 bytes): more than any frame.
    public static let maxBound: UInt64 = (1 << 32) - 1

    /// The bound the codec enforces on `field` of `message`: the one it declares, or
    /// ``defaultMaxBytes`` for a string, bytes or enumeration field of an `input`; nil for none.
    public func maxBytes(of field: FieldDeclaration, in message: MessageDeclaration, of file: ContractFile) -> UInt64? {
        if let declared = field.maxBytes { return declared }
        guard message.isInput else { return nil }
        switch resolve(field.type, in: file) {
        case .scalar(.string)?, .scalar(.bytes)?, .enumeration?: return Self.defaultMaxBytes
        default: return nil
        }
    }

    /// The framework's own contract, whose types every contract may name without declaring them:
    /// `wire.ErrorCode`, the error codes every vertical answers with (VerticalsWire's `ErrorCode`).
    /// No contract file may take its name.
    public static let wireContract = "wire"

    /// The types of ``wireContract``. Their cases are VerticalsWire's, which the generator does
    /// not link (it depends on nothing), so a field of one has no default.
    public static let wireTypes: Set<String> = ["ErrorCode"]

    /// Swift keywords a field or case name cannot be without backquotes (which we do not emit).
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any",
        "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try",
    ]

    /// Checks `files`; returns every problem found, in file order (empty when all is well).
    public static func check(_ files: [ContractFile]) -> (ContractChecker, [ContractDiagnostic]) {
        var checker = ContractChecker(files: files)
        var problems: [ContractDiagnostic] = []
        var contractPaths: [String: String] = [:]
        for file in files {
            if let other = contractPaths[file.name] {
                problems.append(
                    .init(
                        path: file.path, location: file.location,
                        message: "contract '\(file.name)' is also declared in \(other)"))
            }
            contractPaths[file.name] = file.path
            if file.name == Self.wireContract {
                problems.append(
                    .init(
                        path: file.path, location: file.location,
                        message: "contract '\(file.name)' is the framework's (wire.ErrorCode): choose another name"))
            }
            var table: [String: Declaration] = [:]
            for declaration in file.declarations {
                if table[declaration.name] != nil {
                    problems.append(
                        .init(
                            path: file.path, location: declaration.location,
                            message: "'\(declaration.name)' is declared twice in contract '\(file.name)'"))
                } else if declaration.name.first?.isUppercase != true {
                    problems.append(
                        .init(
                            path: file.path, location: declaration.location,
                            message: "a message or enum name starts with an upper-case letter ('\(declaration.name)')"))
                }
                table[declaration.name] = declaration
            }
            checker.declarations[file.name] = table
        }
        for file in files {
            for declaration in file.declarations {
                switch declaration {
                case .message(let message): problems += checker.problems(in: message, of: file)
                case .enumeration(let enumeration): problems += checker.problems(in: enumeration, of: file)
                }
            }
        }
        return (checker, problems)
    }

    private init(files: [ContractFile]) {
        self.files = files
    }

    /// The type `reference` names, seen from contract `file`; nil when it names nothing.
    public func resolve(_ reference: TypeReference, in file: ContractFile) -> ResolvedType? {
        if reference.contract == nil, let scalar = ScalarType(rawValue: reference.name) { return .scalar(scalar) }
        let contract = reference.contract ?? file.name
        if contract == Self.wireContract {
            return Self.wireTypes.contains(reference.name)
                ? .enumeration(contract: contract, name: reference.name, cases: []) : nil
        }
        switch declarations[contract]?[reference.name] {
        case .message(let message)?: return .message(contract: contract, name: message.name)
        case .enumeration(let enumeration)?:
            return .enumeration(contract: contract, name: enumeration.name, cases: enumeration.cases.map(\.name))
        case nil: return nil
        }
    }

    private func problems(in message: MessageDeclaration, of file: ContractFile) -> [ContractDiagnostic] {
        var problems: [ContractDiagnostic] = []
        func report(_ location: SourceLocation, _ text: String) {
            problems.append(ContractDiagnostic(path: file.path, location: location, message: text))
        }
        if message.doc.isEmpty {
            report(message.location, "message '\(message.name)' has no /// doc comment: say what it is for")
        }
        var tags: [UInt64: String] = [:]
        var names: Set<String> = []
        for field in message.fields {
            if field.tag == 0 || field.tag > Self.maxTag {
                report(field.location, "field '\(field.name)' has tag \(field.tag): tags are 1...\(Self.maxTag)")
            } else if let other = tags[field.tag] {
                report(
                    field.location,
                    "tag \(field.tag) is already used by '\(other)' in \(message.name): a tag is never reused")
            }
            tags[field.tag] = tags[field.tag] ?? field.name
            if !names.insert(field.name).inserted {
                report(field.location, "field '\(field.name)' is declared twice in \(message.name)")
            }
            if Self.reserved.contains(field.name) || field.name.first?.isLowercase != true {
                report(
                    field.location,
                    "field name '\(field.name)' must start with a lower-case letter and not be a Swift keyword")
            }
            if field.doc.isEmpty {
                report(field.location, "field '\(field.name)' has no /// doc comment: `describe` shows it")
            }
            guard let type = resolve(field.type, in: file) else {
                let hint =
                    field.type.contract == nil
                    ? "a scalar (\(ScalarType.allCases.map(\.rawValue).joined(separator: ", "))) or a message or enum of contract '\(file.name)'"
                    : field.type.contract == Self.wireContract
                        ? "one of the framework's types: \(Self.wireTypes.sorted().map { "wire.\($0)" }.joined(separator: ", "))"
                        : "a message or enum declared in contract '\(field.type.contract!)'"
                report(field.type.location, "unknown type '\(field.type)': expected \(hint)")
                continue
            }
            if case .defaulted(let literal) = field.presence, let problem = Self.problem(with: literal, for: type) {
                report(literal.location, "bad default for '\(field.name)': \(problem)")
            }
            if let bound = field.maxBytes {
                let at = field.maxBytesLocation ?? field.location
                if type != .scalar(.string) && type != .scalar(.bytes) {
                    report(
                        at,
                        "field '\(field.name)' is \(Self.name(of: type)): only string and bytes fields have a bound in bytes"
                    )
                } else if bound == 0 || bound > Self.maxBound {
                    report(at, "field '\(field.name)' has bound \(bound): a bound is 1...\(Self.maxBound) bytes")
                }
                if case .defaulted(.string(let text, _)) = field.presence, UInt64(text.utf8.count) > bound {
                    report(at, "the default of '\(field.name)' is longer than its bound of \(bound) bytes")
                }
            }
            if message.isInput, case .message(let contract, let name) = type,
                case .message(let held)? = declarations[contract]?[name], !held.isInput
            {
                report(
                    field.type.location,
                    "input '\(message.name)' holds message '\(field.type)': declare it `input` too, so that its fields are bounded"
                )
            }
        }
        return problems
    }

    private func problems(in enumeration: EnumDeclaration, of file: ContractFile) -> [ContractDiagnostic] {
        var problems: [ContractDiagnostic] = []
        if enumeration.doc.isEmpty {
            problems.append(
                .init(
                    path: file.path, location: enumeration.location,
                    message: "enum '\(enumeration.name)' has no /// doc comment: say what it is for"))
        }
        if enumeration.cases.isEmpty {
            problems.append(
                .init(
                    path: file.path, location: enumeration.location, message: "enum '\(enumeration.name)' has no case"))
        }
        var names: Set<String> = []
        for known in enumeration.cases {
            if !names.insert(known.name).inserted {
                problems.append(
                    .init(
                        path: file.path, location: known.location,
                        message: "case '\(known.name)' is declared twice in \(enumeration.name)"))
            }
            if known.name == "unknown" || Self.reserved.contains(known.name) || known.name.first?.isLowercase != true {
                problems.append(
                    .init(
                        path: file.path, location: known.location,
                        message:
                            "case name '\(known.name)' must start with a lower-case letter and not be a Swift keyword or 'unknown' (every enum has unknown(String))"
                    ))
            }
        }
        return problems
    }

    /// Why `literal` cannot be the default of a field of `type`, or nil when it can.
    static func problem(with literal: Literal, for type: ResolvedType) -> String? {
        switch (type, literal) {
        case (.scalar(.bool), .identifier(let word, _)) where word == "true" || word == "false": return nil
        case (.scalar(.int), .integer(let text, _)) where Int64(text) != nil: return nil
        case (.scalar(.uint), .integer(let text, _)) where UInt64(text) != nil: return nil
        case (.scalar(.double), .integer(let text, _)), (.scalar(.double), .float(let text, _)):
            return Double(text).map { $0.isFinite ? nil : "\(text) is not a finite number" }
                ?? "\(text) is not a number"
        case (.scalar(.string), .string): return nil
        case (.enumeration(Self.wireContract, let name, _), _):
            return "a wire.\(name) field cannot have a default; make it optional (`?`) instead"
        case (.enumeration(_, let name, let cases), .identifier(let word, _)):
            return cases.contains(word) ? nil : "'\(word)' is not a case of \(name) (\(cases.joined(separator: ", ")))"
        case (.scalar(.bytes), _), (.scalar(.timestamp), _), (.message, _):
            return "a \(Self.name(of: type)) field cannot have a default; make it optional (`?`) instead"
        case (.scalar(.int), .integer(let text, _)): return "\(text) does not fit in a 64-bit int"
        case (.scalar(.uint), .integer(let text, _)): return "\(text) is not a uint (0...\(UInt64.max))"
        default: return "expected \(Self.expected(for: type))"
        }
    }

    private static func name(of type: ResolvedType) -> String {
        switch type {
        case .scalar(let scalar): scalar.rawValue
        case .message(let contract, let name): "message (\(contract).\(name))"
        case .enumeration(let contract, let name, _): "enum (\(contract).\(name))"
        }
    }

    private static func expected(for type: ResolvedType) -> String {
        switch type {
        case .scalar(.bool): "true or false"
        case .scalar(.int): "a whole number, e.g. 20"
        case .scalar(.uint): "a whole number ≥ 0"
        case .scalar(.double): "a number, e.g. 1.5"
        case .scalar(.string): "a \"string\""
        case .enumeration(_, let name, let cases): "a case of \(name): \(cases.joined(separator: ", "))"
        default: "no default"
        }
    }
}
