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
    private let base: AsyncThrowingStream<Element, any Error>

    init(_ base: AsyncThrowingStream<Element, any Error>) {
        self.base = base
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }

    /// Iterates the events; one iterator per stream.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator

        public mutating func next() async throws(ServiceError) -> Element? {
            do {
                return try await base.next()
            } catch {
                throw Self.typed(error)
            }
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ServiceError) -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw Self.typed(error)
            }
        }

        /// Only ``ServiceError``s are put in the stream; anything else would be a bug here.
        private static func typed(_ error: any Error) -> ServiceError {
            error as? ServiceError ?? ServiceError(.internal, "the stream failed: \(error)")
        }
    }
}
