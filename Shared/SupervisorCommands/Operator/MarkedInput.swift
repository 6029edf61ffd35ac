import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// The Input of a marked operation (``MarkedCall``), built from the operation's description
/// rather than from field names this CLI knows: `login`, `admin` and `password` take what the
/// operation's schema asks for.
///
/// - The command's words fill the Input's required plain fields, in the schema's order
///   (`login ada@example.org` fills the first).
/// - `--field-name VALUE` (or `--field-name=VALUE`) sets the field `fieldName`, required or not.
/// - The stored session's token goes in ``OperationMark/sessionTokenField`` when given.
/// - A required plain field still missing is asked for on a terminal, with echo; elsewhere it
///   is refused (exit 64), naming it.
/// - Each field marked `secret` is read with echo off, or from a line of standard input when it
///   is not a terminal (``SecretPrompt``), never from the command line.
struct MarkedInput {
    /// The command's words: values in order, and `--field-name VALUE` pairs.
    var words: [String]
    /// The stored session's token, for an operation that takes one.
    var token: String? = nil
    /// Whether the operation must mark a field `secret` (`login`, `admin create`, `password`): one
    /// that marks none is refused, so a secret is never asked for with echo on or sent as a plain field.
    var asksSecrets = false

    /// Whom the secrets are for, in their prompts: the first value given, else `fallback`.
    func subject(else fallback: String) -> String {
        (try? split())?.values.first ?? fallback
    }

    /// The words apart: the values in order, and the `--flag VALUE` (or `--flag=VALUE`) pairs.
    func split() throws(CLIError) -> (values: [String], flags: [(flag: String, value: String)]) {
        var values: [String] = []
        var flags: [(flag: String, value: String)] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard word.hasPrefix("--"), word.count > 2 else {
                values.append(word)
                continue
            }
            let option = word.dropFirst(2)
            if let equals = option.firstIndex(of: "=") {
                flags.append((String(option[..<equals]), String(option[option.index(after: equals)...])))
            } else {
                guard index < words.count else { throw CLIError(.usage, status: 64, "\(word) needs a value") }
                flags.append((String(option), words[index]))
                index += 1
            }
        }
        return (values, flags)
    }

    /// The Input's members for `operation`, the secrets read for `subject` by `readSecret`,
    /// a missing plain field by `ask` (nil: nobody to ask).
    func members(
        for operation: DescribedOperation, subject: String,
        ask: (String) -> String? = MarkedInput.askOnTerminal,
        readSecret: (String) throws -> String = { try PasswordPrompt.read(prompt: $0) }
    ) throws -> [(key: String, value: JSONValue)] {
        // First: a schema that marks no field secret would have its password asked for as a
        // plain field, with echo on, or taken from the command line.
        if asksSecrets { _ = try SecretPrompt.fields(of: operation) }
        let schema = operation.input.schema
        let plain = schema.fields.filter { !$0.secret && !(token != nil && $0.name == OperationMark.sessionTokenField) }
        let (values, flags) = try split()
        var given: [String: String] = [:]
        for (flag, value) in flags {
            guard let field = plain.first(where: { $0.name == Self.fieldName(flag) }) else {
                let fields = plain.map { "--\(Self.flag($0.name))" }.joined(separator: ", ")
                throw CLIError(
                    .usage, status: 64, "--\(flag): \(operation.fullName) has no such field to give; it takes \(fields)"
                )
            }
            given[field.name] = value
        }
        let positional = plain.filter { if case .required = $0.presence { given[$0.name] == nil } else { false } }
        guard values.count <= positional.count else {
            let names = positional.map(\.name).joined(separator: ", ")
            throw CLIError(
                .usage, status: 64,
                "\(operation.fullName) takes \(positional.count) value(s) in order (\(names)), not \(values.count)")
        }
        for (field, value) in zip(positional, values) { given[field.name] = value }
        for field in positional.dropFirst(values.count) {
            guard let value = ask("\(SecretPrompt.words(field.name)): ") else {
                throw CLIError(
                    .usage, status: 64,
                    "\(operation.fullName) needs \(field.name): give it in order or as --\(Self.flag(field.name))")
            }
            given[field.name] = value
        }
        var members: [(key: String, value: JSONValue)] = []
        if let token { members.append((key: OperationMark.sessionTokenField, value: .string(token))) }
        for field in plain {
            guard let text = given[field.name] else { continue }
            members.append((key: field.name, value: try Self.value(text, of: field, in: operation)))
        }
        guard asksSecrets || schema.fields.contains(where: \.secret) else { return members }
        return try SecretPrompt.members(for: operation, given: members, subject: subject, read: readSecret)
    }

    /// A plain field's value from a person's words, as the JSON its type takes.
    static func value(_ text: String, of field: FieldDescriptor, in operation: DescribedOperation) throws -> JSONValue {
        switch field.type {
        case .string, .enumeration, .timestamp, .bytes: return .string(text)
        case .int, .uint, .double:
            guard Double(text) != nil else {
                throw CLIError(.invalidInput, status: 64, "\(field.name) takes a number, not \"\(text)\"")
            }
            return .number(text)
        case .bool:
            guard let value = Bool(text) else {
                throw CLIError(.invalidInput, status: 64, "\(field.name) takes true or false, not \"\(text)\"")
            }
            return .bool(value)
        case .message:
            throw CLIError(
                .usage, status: 64,
                "\(field.name) is a message: call \(operation.fullName) with its JSON (svc-supervisor call) instead")
        }
    }

    /// `displayName` from `display-name`.
    static func fieldName(_ flag: String) -> String {
        var name = ""
        var upper = false
        for character in flag {
            if character == "-" {
                upper = true
            } else {
                name.append(upper ? Character(character.uppercased()) : character)
                upper = false
            }
        }
        return name
    }

    /// `display-name` from `displayName`.
    static func flag(_ name: String) -> String {
        SecretPrompt.words(name).replacing(" ", with: "-")
    }

    /// Reads a line after `prompt` when standard input is a terminal; nil otherwise.
    static func askOnTerminal(_ prompt: String) -> String? {
        guard isatty(0) == 1 else { return nil }
        Terminal.prompt("\(prompt)")
        return readLine(strippingNewline: true).flatMap { $0.isEmpty ? nil : $0 }
    }
}
