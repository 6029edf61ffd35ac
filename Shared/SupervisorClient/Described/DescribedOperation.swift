import VerticalsContract
import VerticalsWire

/// One operation as a tool knows it without having linked the vertical's types: its names,
/// the schemas of its messages, its errors, route and marks. Built from a running daemon's
/// `daemon.describe` (``DescribedContract``) or, for tests and tools that do link a contract,
/// from an `OperationDescriptor`; either way `MessageValue` encodes, decodes, validates
/// and prints its messages over ``DescribedMessage/schema``.
public struct DescribedOperation: Sendable, CustomStringConvertible {
    /// The service it travels under: its vertical, or `daemon` for a built-in.
    public let service: String
    /// The name within the service, e.g. `nearest`.
    public let name: String
    /// One sentence.
    public let summary: String
    /// The Input message.
    public let input: DescribedMessage
    /// The Output message (for a stream: the empty response that ends it).
    public let output: DescribedMessage
    /// For a streaming operation, the message each event carries.
    public let event: DescribedMessage?
    /// The error codes it declares.
    public let errors: [ErrorCode]
    /// The URL path it can be opened at, if any.
    public let route: Route?
    /// What tools may rely on it for.
    public let marks: [OperationMark]
    /// `service.name`, as it travels in the envelope.
    public let fullName: String

    /// An operation from its parts.
    public init(
        service: String, name: String, summary: String, input: MessageSchema, output: MessageSchema,
        event: MessageSchema?, errors: [ErrorCode], route: Route?, marks: [OperationMark]
    ) {
        self.service = service
        self.name = name
        self.summary = summary
        self.input = DescribedMessage(schema: input)
        self.output = DescribedMessage(schema: output)
        self.event = event.map(DescribedMessage.init(schema:))
        self.errors = errors
        self.route = route
        self.marks = marks
        self.fullName = "\(service).\(name)"
    }

    /// The operation a compiled contract declares.
    public init(_ descriptor: OperationDescriptor) {
        self.init(
            service: descriptor.service, name: descriptor.name, summary: descriptor.summary,
            input: descriptor.input.schema, output: descriptor.output.schema, event: descriptor.event?.schema,
            errors: descriptor.errors, route: descriptor.route, marks: descriptor.marks)
    }

    /// Whether it answers with a stream of events.
    public var isStream: Bool { event != nil }

    public var description: String {
        if let event { return "\(fullName)(\(input.schema.name)) -> stream of \(event.schema.name)" }
        return "\(fullName)(\(input.schema.name)) -> \(output.schema.name)"
    }
}

/// A message of a ``DescribedOperation``: its schema, where a compiled operation has a type
/// (so `operation.input.schema` reads the same for both).
public struct DescribedMessage: Sendable {
    /// The field table.
    public let schema: MessageSchema
}
