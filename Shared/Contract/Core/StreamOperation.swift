import VerticalsWire

/// A streaming operation: one Input, then any number of Events, ended by an empty response.
///
/// On the wire (docs/PROTOCOL.md § 4.3) the server answers the request with `event` frames
/// under its correlation id, each an `Event`, and ends the stream with a `response` (an empty
/// body), an `error`, or not at all when the caller sends `cancel`.
///
/// ```swift
/// public static let logs = StreamOperation<LogsInput, LogLine>(name, "logs", summary: "Follow a service's log.")
/// for try await line in client.stream(Supervisor.logs, .init(name: "clinics")) { print(line.text) }
/// ```
public struct StreamOperation<Input: WireMessage, Event: WireMessage>: Sendable {
    /// The vertical that serves it.
    public let service: String
    /// The operation's name within the vertical.
    public let name: String
    /// One sentence for `describe`.
    public let summary: String
    /// The error codes this operation may end with, besides the ones any call may get.
    public let errors: [ErrorCode]
    /// What tools may rely on it for (``OperationMark``).
    public let marks: [OperationMark]
    /// ``errors`` as a set a call in flight holds at no cost.
    package let declaredCodes: ErrorCodeSet
    /// `service.operation`, as it travels in the envelope.
    public let fullName: String

    /// Declares a streaming operation.
    public init(
        _ service: String, _ name: String, summary: String, errors: [ErrorCode] = [], marks: [OperationMark] = []
    ) {
        self.service = service
        self.name = name
        self.summary = summary
        self.errors = errors
        self.declaredCodes = ErrorCodeSet(errors)
        self.marks = marks
        self.fullName = "\(service).\(name)"
    }

    /// The operation without its types; its `output` is `Empty` (the response that ends the
    /// stream) and its `event` the Event message.
    public var descriptor: OperationDescriptor {
        OperationDescriptor(
            service: service, name: name, summary: summary, input: Input.self, output: Empty.self, errors: errors,
            route: nil, event: Event.self, marks: marks)
    }
}
