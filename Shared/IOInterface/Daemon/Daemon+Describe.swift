// `daemon.describe`: a running daemon's own account of its contract, built from the same
// field tables (`MessageSchema`) the codec, the JSON form and the contract lock file use.
// `MessageInfo`, `FieldInfo` and `EnumInfo` are the wire form of `MessageSchema`,
// `FieldDescriptor` and `EnumSchema`, no second model: ServiceKit's `ServiceDescription`
// converts both ways (`info(_:)`, `catalog(of:)`), so a client that never linked a vertical
// validates, encodes, decodes and prints its messages with the same generic codec.
import VerticalsWire

extension Daemon {
    /// What the daemon serves: its vertical's name and summary, every operation it routes
    /// (built-ins included) with Input/Output message names and error codes, and the field
    /// table of every message and enumeration those reach. `svc-supervisor describe` shows it.
    public static let describe = Operation<Empty, Description>(
        name, "describe", summary: "The vertical's operations with their Input/Output fields and error codes.",
        errors: [.internal])

    /// The Output of ``Daemon/describe``; also one service's entry in the contract lock file.
    public struct Description: WireMessage {
        /// The vertical's name, e.g. `clinics`.
        public var name: String
        /// One sentence about what it owns.
        public var summary: String
        /// Every operation served, in routing order.
        public var operations: [OperationInfo]
        /// Every message the operations reach (Inputs, Outputs, nested messages), each once.
        public var messages: [MessageInfo]
        /// Every enumeration those messages reach, each once.
        public var enums: [EnumInfo]

        /// Creates the value from its fields.
        public init(
            name: String, summary: String, operations: [OperationInfo], messages: [MessageInfo], enums: [EnumInfo]
        ) {
            self.name = name
            self.summary = summary
            self.operations = operations
            self.messages = messages
            self.enums = enums
        }

        public static let schema = MessageSchema(
            "daemon.Description",
            [
                .required(1, "name", .string),
                .defaulted(2, "summary", .string, .string("")),
                .repeated(3, "operations", .message(OperationInfo.self)),
                .repeated(4, "messages", .message(MessageInfo.self)),
                .repeated(5, "enums", .message(EnumInfo.self)),
            ],
            doc: "A vertical's contract as data: operations, messages and enumerations.")
    }

    /// One operation in a ``Description``.
    public struct OperationInfo: WireMessage {
        /// The name within the vertical, e.g. `login` (sent as `identity.login`).
        public var name: String
        /// One sentence.
        public var summary: String
        /// The Input message's qualified name, e.g. `identity.LoginInput`.
        public var input: String
        /// The Output message's qualified name.
        public var output: String
        /// The error codes it declares.
        public var errors: [ErrorCode]
        /// The service name it travels under: the vertical's own, or `daemon` for a built-in
        /// (the envelope carries `<service>.<name>`).
        public var service: String
        /// For a streaming operation, the qualified name of the message each `event` frame carries
        /// (its `output` is then the empty response that ends the stream); absent otherwise.
        public var event: String?

        /// Creates the value from its fields.
        public init(
            name: String, summary: String, input: String, output: String, errors: [ErrorCode], service: String,
            event: String? = nil
        ) {
            self.name = name
            self.summary = summary
            self.input = input
            self.output = output
            self.errors = errors
            self.service = service
            self.event = event
        }

        public static let schema = MessageSchema(
            "daemon.OperationInfo",
            [
                .required(1, "name", .string),
                .defaulted(2, "summary", .string, .string("")),
                .required(3, "input", .string),
                .required(4, "output", .string),
                .repeated(5, "errors", .enumeration(ErrorCode.schema)),
                .required(6, "service", .string),
                .optional(7, "event", .string),
            ])
    }

    /// One message's field table in a ``Description``: the wire form of a `MessageSchema`.
    public struct MessageInfo: WireMessage {
        /// The qualified name, e.g. `clinics.Clinic`.
        public var name: String
        /// One line about it, if its schema has one.
        public var doc: String
        /// Its fields, in declaration order.
        public var fields: [FieldInfo]

        /// Creates the value from its fields.
        public init(name: String, doc: String, fields: [FieldInfo]) {
            self.name = name
            self.doc = doc
            self.fields = fields
        }

        public static let schema = MessageSchema(
            "daemon.MessageInfo",
            [
                .required(1, "name", .string),
                .defaulted(2, "doc", .string, .string("")),
                .repeated(3, "fields", .message(FieldInfo.self)),
            ])
    }

    /// One field of a ``MessageInfo``: the wire form of a `FieldDescriptor`.
    public struct FieldInfo: WireMessage {
        /// The tag on the wire.
        public var tag: UInt64
        /// The name (the JSON key).
        public var name: String
        /// The type as `describe` spells it: `string`, `enum clinics.Service`, `message clinics.Clinic`.
        public var type: String
        /// Whether it must be present, may be absent, has a default, or repeats.
        public var presence: FieldPresence
        /// A defaulted field's default, in its JSON form (`20`, `"text"`, `true`).
        public var defaultValue: String?
        /// One line about it, if its descriptor has one.
        public var doc: String

        /// Creates the value from its fields.
        public init(
            tag: UInt64, name: String, type: String, presence: FieldPresence, defaultValue: String? = nil,
            doc: String = ""
        ) {
            self.tag = tag
            self.name = name
            self.type = type
            self.presence = presence
            self.defaultValue = defaultValue
            self.doc = doc
        }

        public static let schema = MessageSchema(
            "daemon.FieldInfo",
            [
                .required(1, "tag", .uint),
                .required(2, "name", .string),
                .required(3, "type", .string),
                .required(4, "presence", .enumeration(FieldPresence.schema)),
                .optional(5, "defaultValue", .string),
                .defaulted(6, "doc", .string, .string("")),
            ])
    }

    /// A field's presence, as ``FieldInfo`` carries it.
    public enum FieldPresence: WireEnum {
        case required, optional, defaulted, repeated
        /// A presence this build does not know, kept as sent.
        case unknown(String)

        public static let knownCases: [FieldPresence] = [.required, .optional, .defaulted, .repeated]
        public static let schema = EnumSchema("daemon.FieldPresence", knownCases)
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .required: "required"
            case .optional: "optional"
            case .defaulted: "defaulted"
            case .repeated: "repeated"
            case .unknown(let raw): raw
            }
        }
    }

    /// One enumeration in a ``Description``: its name and known cases (an `EnumSchema`).
    public struct EnumInfo: WireMessage {
        /// The qualified name, e.g. `clinics.Service`.
        public var name: String
        /// The known case names, in declaration order.
        public var cases: [String]

        /// Creates the value from its fields.
        public init(name: String, cases: [String]) {
            self.name = name
            self.cases = cases
        }

        public static let schema = MessageSchema(
            "daemon.EnumInfo", [.required(1, "name", .string), .repeated(2, "cases", .string)])
    }
}
