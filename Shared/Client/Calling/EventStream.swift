import Synchronization
import VerticalsWire

/// The events of a streaming call (`ServiceClient/stream(_:_:timeout:)`), as they arrive.
///
/// Ends (returns nil) when the callee ends the stream with its response; throws the callee's
/// `ServiceError` when it ends with an error, or the client's own (`unavailable` when the
/// connection closed, `deadlineExceeded` past a deadline given). Stopping early — leaving the
/// `for` loop, or cancelling the task that iterates — sends `cancel` to the callee.
///
/// ```swift
/// for try await line in client.stream(Supervisor.logs, .init(name: "clinics", follow: true)) {
///     print(line.text)
/// }
/// ```
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    /// What ends a stream early: the vertical's typed error.
    public typealias Failure = ServiceError
    private let base: AsyncThrowingStream<Delivered, any Error>
    private let reading: Reading

    init(
        _ base: AsyncThrowingStream<Delivered, any Error>, unread: UnreadBytes,
        decode: @escaping @Sendable (Message) throws(ServiceError) -> Element, offLoop: OffLoop?, operation: String,
        cancel: @escaping @Sendable () -> Void
    ) {
        self.base = base
        self.reading = Reading(unread: unread, decode: decode, offLoop: offLoop, operation: operation, cancel: cancel)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), reading: reading)
    }

    /// An event received and not yet read: its frame, and the bytes it counts.
    struct Delivered: Sendable {
        let message: Message
        let bytes: Int
    }

    /// How an event is read: decoded by its reader, not by the loop that received it, so that a
    /// callee's frame-sized event costs the loop what a small one does.
    struct Reading: Sendable {
        let unread: UnreadBytes
        let decode: @Sendable (Message) throws(ServiceError) -> Element
        let offLoop: OffLoop?
        let operation: String
        let cancel: @Sendable () -> Void

        /// `delivered`'s event, decoded where it is read, or on `offLoop` when it is over
        /// ``ServiceClient/offLoopAnswerBytes``; a failure cancels the call.
        nonisolated(nonsending) func read(_ delivered: Delivered?) async throws(ServiceError) -> Element? {
            guard let delivered else { return nil }
            unread.release(delivered.bytes)
            let message = delivered.message
            do {
                guard let offLoop, message.payload.count - message.bodyStart > ServiceClient.offLoopAnswerBytes else {
                    return try decode(message)
                }
                let decode = decode
                return try await offLoop.result(
                    of: { () throws(ServiceError) in try decode(message) },
                    refused: ServiceError(
                        .resourceExhausted,
                        "\(operation) sent an event of \(message.payload.count) bytes, which was not decoded: "
                            + "the threads that decode events that big are busy"))
            } catch {
                cancel()
                throw error
            }
        }
    }

    /// Iterates the events; one iterator per stream.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Delivered, any Error>.AsyncIterator
        let reading: Reading

        public mutating func next() async throws(ServiceError) -> Element? {
            let delivered: Delivered?
            do {
                delivered = try await base.next()
            } catch {
                throw Self.typed(error)
            }
            return try await reading.read(delivered)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ServiceError) -> Element? {
            let delivered: Delivered?
            do {
                delivered = try await base.next(isolation: actor)
            } catch {
                throw Self.typed(error)
            }
            return try await reading.read(delivered)
        }

        /// Only ``ServiceError``s are put in the stream; anything else would be a bug here.
        private static func typed(_ error: any Error) -> ServiceError {
            error as? ServiceError ?? ServiceError(.internal, "the stream failed: \(error)")
        }
    }
}

/// The bytes of a stream's events received and not yet read, against the stream's bound. Shared
/// by the loop, which admits each event, and the reader, which releases it.
final class UnreadBytes: Sendable {
    private let limit: Int
    private let bytes = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts an event of `count` bytes, when it fits: within the limit, or alone (nothing else
    /// unread), so that one event larger than the limit is still read.
    func admit(_ count: Int) -> Bool {
        bytes.withLock { unread in
            guard unread == 0 || unread + count <= limit else { return false }
            unread += count
            return true
        }
    }

    /// Forgets an event of `count` bytes, read.
    func release(_ count: Int) {
        bytes.withLock { $0 -= count }
    }
}
