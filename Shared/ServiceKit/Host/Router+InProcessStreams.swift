import Synchronization
import VerticalsContract
import VerticalsWire

extension Router {
    /// Serves one call of streaming `operation` in-process and returns every event it sent, in
    /// order, once it ended with its response; an `error` ending is thrown as the `ServiceError`
    /// a client would get. For unit tests of a stream's handler (the stream must end by itself:
    /// a follow stream would never return).
    ///
    /// ```swift
    /// let events = try await routes.serveStreamInProcess(TestEcho().count, .init(count: 3))
    /// ```
    public func serveStreamInProcess<Input, Event>(
        _ operation: StreamOperation<Input, Event>, _ input: Input
    ) async throws -> [Event] {
        guard let handler = route(for: operation.fullName) else {
            throw ServiceError(.unimplemented, "\(operation.fullName) is not routed")
        }
        let request = Message.frame(
            Envelope(kind: .request, correlationID: 1, operation: operation.fullName), body: input)
        let message = try Message(payload: Array(request.dropFirst(FrameEncoder.headerSize)))
        let sink = CollectingSink()
        let context = RequestContext(
            operation: operation.fullName, correlationID: 1, deadline: nil, traceparent: nil, peer: nil, caller: nil,
            logger: .init(label: "verticals"), events: sink)
        try await handler(message, context, Answer(target: InProcessAnswer(), id: 1, serial: 1, atOnce: false))
        return try sink.frames.withLock { $0 }.map { frame in
            try Message(payload: Array(frame.dropFirst(FrameEncoder.headerSize))).decodeBody(as: Event.self)
        }
    }
}

/// An ``EventSink`` that keeps every event frame (``Router/serveStreamInProcess(_:_:)``).
private final class CollectingSink: EventSink {
    let frames = Mutex<[[UInt8]]>([])

    nonisolated(nonsending) func sendEvent(_ frame: [UInt8], id: UInt64) async throws {
        try Task.checkCancellation()
        frames.withLock { $0.append(frame) }
    }
}
