import Foundation
import VerticalsWire

/// What one consumer relies on from one provider: a file `Services/<Consumer>/Contracts/<provider>.json`,
/// kept next to the consumer's code so that whoever changes a call changes its expectation.
///
/// ```json
/// {"consumer": "records", "provider": "clinics", "interactions": [
///   {"description": "…", "code": "Sources/Domain/UseCases/AddEntry.swift",
///    "state": "no clinic with id c_missing", "operation": "get",
///    "input": {"id": "c_missing"}, "expect": {"error": "notFound"}}]}
/// ```
///
/// `state` names a provider state the provider's verification knows how to set up through
/// its own public operations; the state yields variables (`token`, `userID`, `clinicID`…)
/// that `{{name}}` in `input` and `expect` stand for. `expect` is `{"output": …}`, matched
/// as a subset (objects: the members listed; lists: each element listed matches some
/// element), or `{"error": "<code>"}`.
public struct ConsumerContract: Sendable {
    /// One call the consumer makes and what it needs back.
    public struct Interaction: Sendable {
        /// What the consumer does with it, in words.
        public var description: String
        /// The consumer's source file that makes the call (for the reader).
        public var code: String
        /// The provider state it needs.
        public var state: String
        /// The operation's name within the provider, e.g. `get`.
        public var operation: String
        /// The Input, as JSON with `{{variables}}`.
        public var input: JSONValue
        /// The Output (a subset) it relies on, or nil when it expects an error.
        public var output: JSONValue?
        /// The error code it expects, or nil when it expects an Output.
        public var error: String?
    }

    /// The consuming vertical.
    public var consumer: String
    /// The providing vertical.
    public var provider: String
    /// Its interactions, in file order.
    public var interactions: [Interaction]
    /// The file it was read from.
    public var path: String

    /// Every consumer contract of the checkout at `root`: `Services/*/Contracts/*.json`.
    public static func all(root: URL) throws -> [ConsumerContract] {
        let services = root.appendingPathComponent("Services")
        var contracts: [ConsumerContract] = []
        for service in try FileManager.default.contentsOfDirectory(atPath: services.path).sorted() {
            let folder = services.appendingPathComponent(service).appendingPathComponent("Contracts")
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".json") {
                let url = folder.appendingPathComponent(name)
                contracts.append(
                    try ConsumerContract(text: try String(contentsOf: url, encoding: .utf8), path: url.path))
            }
        }
        return contracts
    }

    /// Reads a consumer contract; throws ``FixtureFileError`` naming what is malformed.
    public init(text: String, path: String) throws {
        self.path = path
        let root = try JSONValue(parsing: text)
        func string(_ object: JSONValue, _ key: String) throws -> String {
            guard case .string(let value)? = object.member(key) else {
                throw FixtureFileError(path: path, problem: "`\(key)` must be a string")
            }
            return value
        }
        consumer = try string(root, "consumer")
        provider = try string(root, "provider")
        guard case .array(let list)? = root.member("interactions") else {
            throw FixtureFileError(path: path, problem: "`interactions` must be a list")
        }
        interactions = try list.map { item in
            guard let expect = item.member("expect"), let input = item.member("input") else {
                throw FixtureFileError(path: path, problem: "every interaction needs `input` and `expect`")
            }
            var error: String?
            if case .string(let code)? = expect.member("error") { error = code }
            let output = expect.member("output")
            guard (output == nil) != (error == nil) else {
                throw FixtureFileError(path: path, problem: "`expect` holds exactly one of `output` and `error`")
            }
            return Interaction(
                description: try string(item, "description"), code: (try? string(item, "code")) ?? "",
                state: try string(item, "state"), operation: try string(item, "operation"), input: input,
                output: output, error: error)
        }
    }
}

extension JSONValue {
    /// The member `key` of an object (the first, if repeated), or nil.
    public func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// This value with every `{{name}}` replaced from `variables`: a string that is exactly
    /// one placeholder becomes the variable's value (a number stays a number); placeholders
    /// inside longer strings are replaced by the variable's text. Throws naming an unknown one.
    public func substituting(_ variables: [String: JSONValue]) throws(UnknownVariable) -> JSONValue {
        switch self {
        case .string(let text):
            guard text.contains("{{") else { return self }
            if text.hasPrefix("{{"), text.hasSuffix("}}"), text.components(separatedBy: "{{").count == 2 {
                let name = String(text.dropFirst(2).dropLast(2))
                guard let value = variables[name] else { throw UnknownVariable(name: name) }
                return value
            }
            var result = text
            for (name, value) in variables {
                let replacement: String
                if case .string(let inner) = value { replacement = inner } else { replacement = value.serialized() }
                result = result.replacingOccurrences(of: "{{\(name)}}", with: replacement)
            }
            if let open = result.range(of: "{{"),
                let close = result.range(of: "}}", range: open.upperBound..<result.endIndex)
            {
                throw UnknownVariable(name: String(result[open.upperBound..<close.lowerBound]))
            }
            return .string(result)
        case .array(let elements):
            var out: [JSONValue] = []
            for element in elements { out.append(try element.substituting(variables)) }
            return .array(out)
        case .object(let members):
            var out: [(key: String, value: JSONValue)] = []
            for member in members { out.append((member.key, try member.value.substituting(variables))) }
            return .object(out)
        default:
            return self
        }
    }

    /// Where `actual` fails to hold this (expected) value as a subset, or nil when it does:
    /// objects need the members listed, lists need each listed element to match some element.
    public func subsetMismatch(in actual: JSONValue, path: String = "") -> String? {
        switch (self, actual) {
        case (.object(let expected), .object):
            for (key, value) in expected {
                guard let found = actual.member(key) else { return "\(path).\(key) is missing" }
                if let mismatch = value.subsetMismatch(in: found, path: "\(path).\(key)") { return mismatch }
            }
            return nil
        case (.array(let expected), .array(let elements)):
            for (index, value) in expected.enumerated()
            where !elements.contains(where: { value.subsetMismatch(in: $0) == nil }) {
                return "\(path)[\(index)]: no element matches \(value.serialized())"
            }
            return nil
        default:
            return self == actual ? nil : "\(path): expected \(serialized()), got \(actual.serialized())"
        }
    }
}

/// A `{{name}}` no provider state supplied.
///
/// Its ``code`` is `unknownVariable`; the name is also the detail `name`.
public struct UnknownVariable: CodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<UnknownVariable>

    /// The variable's name.
    public let name: String

    /// What kind of problem it is: always `unknownVariable`.
    public var code: Code { .unknownVariable }

    /// Which variable, and that the provider state does not set it.
    public var message: String { "no variable {{\(name)}}: the provider state does not set it" }

    /// The variable's name, as the detail `name`.
    public var details: [ErrorDetail] { [ErrorDetail("name", name)] }
}

extension ErrorKind where Domain == UnknownVariable {
    /// A `{{name}}` that no provider state sets.
    public static var unknownVariable: Self { Self("unknownVariable") }
}
