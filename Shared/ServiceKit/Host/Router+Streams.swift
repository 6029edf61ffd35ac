import VerticalsClient
import VerticalsContract
import VerticalsWire

extension Router {
    /// Serves streaming `operation` with `handler`, which returns the events to send.
    ///
    /// Each element of the sequence goes out as one `event` frame under the request's id; when
    /// the sequence ends, an empty `response` ends the stream; when it throws, an `error` does
    /// (a ``ServiceErrorConvertible`` error as its `ServiceError`, anything else as `internal`).
    /// The caller's `cancel`, its deadline or the connection closing cancels the handler's task,
    /// which ends iteration.
    /// Backpressure: while the connection's outbound queue is over its high-water mark (the
    /// reader is slower than the producer), the next element is not asked for until it drains.
    ///
    /// ```swift
    /// router.onStream(Supervisor.watch) { _, _ in try await engine.followStates() }
    /// ```
    public mutating func onStream<Input, Event, Events: AsyncSequence & Sendable>(
        _ operation: StreamOperation<Input, Event>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Input, RequestContext) async throws -> Events
    ) where Events.Element == Event {
        precondition(operation.service == service, "\(operation.fullName) routed on the \(service) router")
        precondition(routes[operation.fullName] == nil, "\(operation.fullName) routed twice")
        let checksEnumerations = Input.schema.containsEnumerations
        let endSize = FrameSizeHint()
        routes[operation.fullName] = Handler { message, context, answer in
            guard !Self.decodesOffLoop(message) else {
                return try await Self.withLargeInput(of: message, checkingEnumerations: checksEnumerations) {
                    (input: Input) in try await stream(input, context, answer)
                }
            }
            try await stream(try Self.input(of: message, checkingEnumerations: checksEnumerations), context, answer)
        }
        routes[operation.fullName]?.isStream = true
        operations.append(operation.descriptor)

        /// Sends the events `handler` makes for `input`, then the stream's closing response.
        @Sendable nonisolated(nonsending) func stream(_ input: Input, _ context: RequestContext, _ answer: Answer)
            async throws
        {
            do {
                guard let sink = context.events else {
                    throw ServiceError(
                        .unimplemented,
                        "\(operation.fullName) streams: call it over a connection, or with serveStreamInProcess")
                }
                let id = context.correlationID
                do {
                    let events = try await handler(input, context)
                    var sent = 0
                    for try await event in events {
                        try await sink.sendEvent(
                            Message.frame(Envelope(kind: .event, correlationID: id), body: event), id: id)
                        sent += 1
                        // A producer that never waits (its events ready, its reader fast) would keep the
                        // loop to itself: let the loop poll its I/O now and then (a yielded job runs in
                        // the loop's next batch, after the poll).
                        if sent % Self.eventsBetweenYields == 0 { await Task.yield() }
                    }
                } catch {
                    throw Self.wireForm(of: error)
                }
                answer.respond(Empty(), sized: endSize)
            }
        }
    }

    /// Events a stream sends before it lets the loop run other work (``onStream(_:_:)``).
    static let eventsBetweenYields = 64
}
