import VerticalsWire

/// One operation of a vertical's contract: its name and its typed Input and Output.
///
/// Declared once in IOInterface as data; the host serves it and the client calls it:
///
/// ```swift
/// let session = try await client.call(Identity.login, .init(email: "a@b.c", password: "…"))
/// ```
public struct Operation<Input: WireMessage, Output: WireMessage>: Sendable {
    /// The vertical that serves it, e.g. `identity`.
    public let service: String
    /// The operation's name within the vertical, e.g. `login`.
    public let name: String
    /// One sentence for `describe`.
    public let summary: String
    /// The error codes this operation may answer with, besides the ones any call may get.
    public let errors: [ErrorCode]
    /// The URL path it can be opened at, if any (`svc-supervisor open`).
    public let route: Route?
    /// What tools may rely on it for (``OperationMark``), e.g. `login` issuing a session.
    public let marks: [OperationMark]
    /// ``errors`` as a set a call in flight holds at no cost.
    package let declaredCodes: ErrorCodeSet
    /// `service.operation`, as it travels in the envelope: kept, not formatted per call (a
    /// string interpolation on every call cost about as much as encoding a small Input).
    public let fullName: String

    /// Declares an operation.
    public init(
        _ service: String, _ name: String, summary: String, errors: [ErrorCode] = [], route: Route? = nil,
        marks: [OperationMark] = []
    ) {
        self.service = service
        self.name = name
        self.summary = summary
        self.errors = errors
        self.declaredCodes = ErrorCodeSet(errors)
        self.route = route
        self.marks = marks
        self.fullName = "\(service).\(name)"
    }

    /// The operation without its types: for registries, `describe` and the lock file.
    public var descriptor: OperationDescriptor {
        OperationDescriptor(
            service: service, name: name, summary: summary, input: Input.self, output: Output.self, errors: errors,
            route: route, marks: marks)
    }
}

/// An operation with its types erased, so that a contract can list all of its operations.
public struct OperationDescriptor: Sendable, CustomStringConvertible {
    /// The vertical that serves it.
    public let service: String
    /// The operation's name within the vertical.
    public let name: String
    /// One sentence for `describe`.
    public let summary: String
    /// The Input message type.
    public let input: any WireMessage.Type
    /// The Output message type.
    public let output: any WireMessage.Type
    /// The error codes it declares.
    public let errors: [ErrorCode]
    /// The URL path it can be opened at, if any.
    public let route: Route?
    /// For a streaming operation (``StreamOperation``), the message each `event` frame carries;
    /// nil for a plain request/response operation.
    public var event: (any WireMessage.Type)? = nil
    /// What tools may rely on it for (``OperationMark``).
    public var marks: [OperationMark] = []

    /// Whether it answers with a stream of events (``event``) before its response.
    public var isStream: Bool { event != nil }

    /// `service.operation`.
    public var fullName: String { "\(service).\(name)" }

    public var description: String {
        if let event { return "\(fullName)(\(input.schema.name)) -> stream of \(event.schema.name)" }
        return "\(fullName)(\(input.schema.name)) -> \(output.schema.name)"
    }
}
