// `daemon.describe`: a running daemon's own account of its contract, built from the same
// field tables (`MessageSchema`) the codec, the JSON form and the contract lock file use.
// `MessageInfo`, `FieldInfo` and `EnumInfo` are the wire form of `MessageSchema`,
// `FieldDescriptor` and `EnumSchema`, no second model: ServiceKit's `ServiceDescription`
// converts both ways (`info(_:)`, `catalog(of:)`), so a client that never linked a vertical
// validates, encodes, decodes and prints its messages with the same generic codec.
//
// `FieldInfo`, `FieldPresence` and `EnumInfo` are declared in daemon.vcontract. The three messages
// here stay hand-written (their codecs in Daemon+Describe+Codec.swift) because the contract
// language cannot say them: `Description.summary`, `OperationInfo.summary` and `MessageInfo.doc`
// are defaulted on the wire yet have no default in the init, where a generated init would give
// them one; and `Description` holds `OperationInfo`s.
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
        /// The URL path it can be opened at (`svc-supervisor open`); absent when it has none.
        public var route: RouteInfo?
        /// What tools may rely on it for (``OperationMark``'s raw values, e.g. `issuesSession`).
        public var marks: [String]

        /// Creates the value from its fields.
        public init(
            name: String, summary: String, input: String, output: String, errors: [ErrorCode], service: String,
            event: String? = nil, route: RouteInfo? = nil, marks: [String] = []
        ) {
            self.name = name
            self.summary = summary
            self.input = input
            self.output = output
            self.errors = errors
            self.service = service
            self.event = event
            self.route = route
            self.marks = marks
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
                .optional(8, "route", .message(RouteInfo.self)),
                .repeated(9, "marks", .string),
            ])
    }

    /// One message's field table in a ``Description``: the wire form of a `MessageSchema`.
    public struct MessageInfo: WireMessage {
        /// The qualified name, e.g. `shop.Item`.
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
}
