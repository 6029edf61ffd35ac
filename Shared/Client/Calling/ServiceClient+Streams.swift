import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

extension ServiceClient {
    /// The deadline a stream waits under when it is given none: it may follow for ever, and sends
    /// "no deadline" (0) on the wire. A century, so that it never fires.
    static let noDeadline = Duration.seconds(100 * 365 * 86_400)

    /// Events a stream's reader may fall behind (received, not yet read) by default.
    public static let defaultStreamBuffer = 4_096

    /// Bytes of events a stream's reader may fall behind by default: four frames of the largest
    /// size a decoder accepts by default. An event larger than this is still read when it is the
    /// only one unread.
    public static let defaultStreamBufferBytes = 4 * FrameDecoder.defaultMaxFrameSize

    /// Calls streaming `operation` and returns its events as they arrive.
    ///
    /// Without `timeout` the stream has no deadline (it ends when the callee ends it, the
    /// connection closes, or the caller stops iterating, which sends `cancel`); while serving a
    /// request it carries that request's remaining deadline, as every call does.
    ///
    /// `buffer` bounds the events received but not yet read, and `bufferBytes` the bytes of their
    /// frames: a reader that falls further behind gets `resourceExhausted` (and the callee a
    /// `cancel`) instead of this process's memory growing without bound (this connection keeps
    /// reading for the other calls on it, so the callee's own backpressure cannot hold it back).
    /// Both bounds count: a callee sending frame-sized events reaches the bytes long before the count.
    public func stream<Input, Event>(
        _ operation: StreamOperation<Input, Event>, _ input: Input, timeout: Duration? = nil,
        buffer: Int = ServiceClient.defaultStreamBuffer, bufferBytes: Int = ServiceClient.defaultStreamBufferBytes
    ) -> EventStream<Event> {
        let name = operation.fullName
        return streamMessages(
            service: operation.service, operation: name, declaring: operation.declaredCodes, timeout: timeout,
            buffer: buffer, bufferBytes: bufferBytes,
            frame: { envelope in Message.frame(envelope, body: input) }
        ) { message throws(ServiceError) in
            do {
                return try message.decodeBody(as: Event.self)
            } catch {
                throw ServiceError(
                    .protocolError, "\(name) sent an event that is not a valid \(Event.schema.name): \(error)")
            }
        }
    }

    /// Calls streaming `operation` of `service` with an already-encoded body; returns each
    /// event's body. For tools (`svc-supervisor call`) that hold JSON rather than types; `buffer`
    /// and `bufferBytes` bound the unread events as ``stream(_:_:timeout:buffer:bufferBytes:)``'s do.
    public func streamRaw(
        service: String, operation: String, body: [UInt8], timeout: Duration? = nil,
        buffer: Int = ServiceClient.defaultStreamBuffer, bufferBytes: Int = ServiceClient.defaultStreamBufferBytes
    ) -> EventStream<[UInt8]> {
        streamMessages(
            service: service, operation: operation, timeout: timeout, buffer: buffer, bufferBytes: bufferBytes,
            frame: { envelope in Message.frame(envelope, rawBody: body) }
        ) { message throws(ServiceError) in message.body }
    }

    /// Sends the request from a task on the loop and feeds its events into a stream, which decodes
    /// each as it is read (one over ``offLoopAnswerBytes`` on `offLoop`); the stream's end (the consumer leaving, or its task cancelled) cancels that task, and so
    /// the call, which sends `cancel`. Past `buffer` unread events, or `bufferBytes` unread bytes of
    /// them, the stream fails.
    private func streamMessages<Element: Sendable>(
        service: String, operation: String, declaring errors: ErrorCodeSet? = nil, timeout: Duration?, buffer: Int,
        bufferBytes: Int, frame: @escaping @Sendable (Envelope) -> [UInt8],
        decode: @escaping @Sendable (Message) throws(ServiceError) -> Element
    ) -> EventStream<Element> {
        let (events, continuation) = AsyncThrowingStream<EventStream<Element>.Delivered, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(buffer))
        let unread = UnreadBytes(limit: bufferBytes)
        let task = Task(executorPreference: loop) { [self] in
            do throws(ServiceError) {
                _ = try await send(
                    service: service, operation: operation, declaring: errors, timeout: timeout,
                    onEvent: { message in
                        do throws(ServiceError) {
                            let bytes = message.payload.count
                            guard unread.admit(bytes) else {
                                throw ServiceError(
                                    .resourceExhausted,
                                    "the reader of \(operation) fell \(bufferBytes) bytes of events behind; "
                                        + "read faster or ask for less")
                            }
                            if case .dropped = continuation.yield(.init(message: message, bytes: bytes)) {
                                throw ServiceError(
                                    .resourceExhausted,
                                    "the reader of \(operation) fell \(buffer) events behind; read faster or ask for less"
                                )
                            }
                        } catch {
                            continuation.finish(throwing: error)
                        }
                    }, frame: frame)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return EventStream(
            events, unread: unread, decode: decode, offLoop: offLoop, operation: operation, cancel: { task.cancel() })
    }
}
