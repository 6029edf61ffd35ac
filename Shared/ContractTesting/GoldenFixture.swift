import VerticalsContract
import VerticalsWire

/// The golden wire fixtures of one operation: its Input, its Output, the Event of a streaming
/// operation, and one error per declared error code, each as the hex of its exact body bytes
/// and its JSON form. One file per operation, `Tests/Contracts/Fixtures/<service>/<operation>.json`.
public struct GoldenFixture: Sendable, Equatable {
    /// One message of the fixture.
    public struct Sample: Sendable, Equatable {
        /// `input`, `output`, `event` (a streaming operation's) or `error <code>`.
        public var role: String
        /// The message's schema name, e.g. `identity.LoginInput` or `wire.Error`.
        public var message: String
        /// The body bytes.
        public var bytes: [UInt8]
        /// The JSON form.
        public var json: JSONValue

        /// Creates a sample.
        public init(role: String, message: String, bytes: [UInt8], json: JSONValue) {
            self.role = role
            self.message = message
            self.bytes = bytes
            self.json = json
        }
    }

    /// `service.operation`.
    public var operation: String
    /// Input, Output, the Event of a stream, then one per declared error code.
    public var samples: [Sample]

    /// Creates a fixture.
    public init(operation: String, samples: [Sample]) {
        self.operation = operation
        self.samples = samples
    }

    /// The error code of an `error <code>` role, or nil for `input`, `output` and `event`.
    public static func errorCode(of role: String) -> String? {
        role.hasPrefix("error ") ? String(role.dropFirst("error ".count)) : nil
    }

    /// The fixtures of `operation` today: canonical examples (``ExampleValue``) encoded by
    /// the generic codec, read back by the message's own type and printed as JSON.
    public static func generate(for operation: OperationDescriptor) throws -> GoldenFixture {
        var samples = [
            try sample("input", operation.input), try sample("output", operation.output),
        ]
        if let event = operation.event { samples.append(try sample("event", event)) }
        for code in operation.errors {
            let error = ServiceError(
                code, "\(operation.fullName) answers \(code.wireName)", details: [ErrorDetail("field", "example")])
            samples.append(
                Sample(
                    role: "error \(code.wireName)", message: ServiceError.schema.name, bytes: error.encodedBody(),
                    json: try JSONValue(parsing: try error.jsonString())))
        }
        return GoldenFixture(operation: operation.fullName, samples: samples)
    }

    private static func sample(_ role: String, _ type: any WireMessage.Type) throws -> Sample {
        let bytes = try ExampleValue.of(type.schema).encoded(as: type.schema)
        return Sample(role: role, message: type.schema.name, bytes: bytes, json: try typedJSON(type, bytes))
    }

    /// The JSON form of `bytes` read by `M`'s own decoder.
    private static func typedJSON<M: WireMessage>(_: M.Type, _ bytes: [UInt8]) throws -> JSONValue {
        try JSONValue(parsing: try M(decoding: bytes).jsonString())
    }
}

extension GoldenFixture {
    /// The fixture as its file holds it: pretty JSON, samples as `input`, `output`, `event` (a
    /// stream's only), `errors`.
    public func fileText() -> String {
        func object(_ sample: Sample) -> JSONValue {
            .object([
                ("message", .string(sample.message)), ("hex", .string(Hex.encode(sample.bytes))),
                ("json", sample.json),
            ])
        }
        var members: [(key: String, value: JSONValue)] = [("operation", .string(operation))]
        var errors: [(key: String, value: JSONValue)] = []
        for sample in samples {
            if let code = Self.errorCode(of: sample.role) {
                errors.append((code, object(sample)))
            } else {
                members.append((sample.role, object(sample)))
            }
        }
        members.append(("errors", .object(errors)))
        return JSONValue.object(members).serialized(pretty: true) + "\n"
    }

    /// Reads a fixture file; throws ``FixtureFileError`` naming what is malformed.
    public init(fileText: String, path: String) throws {
        let root = try JSONValue(parsing: fileText)
        func member(_ object: JSONValue, _ key: String) throws -> JSONValue {
            guard case .object(let members) = object, let found = members.first(where: { $0.key == key }) else {
                throw FixtureFileError(path: path, problem: "no `\(key)`")
            }
            return found.value
        }
        func sample(_ role: String, _ value: JSONValue) throws -> Sample {
            guard case .string(let message) = try member(value, "message"),
                case .string(let hex) = try member(value, "hex"), let bytes = Hex.decode(hex)
            else { throw FixtureFileError(path: path, problem: "\(role): `message` and `hex` must be strings of hex") }
            return Sample(role: role, message: message, bytes: bytes, json: try member(value, "json"))
        }
        guard case .string(let operation) = try member(root, "operation") else {
            throw FixtureFileError(path: path, problem: "`operation` must be a string")
        }
        var samples = [
            try sample("input", try member(root, "input")), try sample("output", try member(root, "output")),
        ]
        if case .object(let members) = root, let event = members.first(where: { $0.key == "event" }) {
            samples.append(try sample("event", event.value))
        }
        guard case .object(let errors) = try member(root, "errors") else {
            throw FixtureFileError(path: path, problem: "`errors` must be an object")
        }
        for (code, value) in errors { samples.append(try sample("error \(code)", value)) }
        self.init(operation: operation, samples: samples)
    }
}

/// A fixture file that is not what ``GoldenFixture`` writes.
///
/// Its ``code`` is `malformed`; the file is also the detail `path`.
public struct FixtureFileError: CodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<FixtureFileError>

    /// The file.
    public let path: String
    /// What is wrong.
    public let problem: String

    /// What kind of problem it is: always `malformed`.
    public var code: Code { .malformed }
    /// What is wrong.
    public var message: String { problem }
    /// The file, as the detail `path`.
    public var details: [ErrorDetail] { [ErrorDetail("path", path)] }

    /// The message, after the file it is about.
    public var description: String { "\(path): \(problem)" }
}

extension ErrorKind where Domain == FixtureFileError {
    /// The file is not a fixture: a member missing, of the wrong type, or not hex.
    public static var malformed: Self { Self("malformed") }
}
