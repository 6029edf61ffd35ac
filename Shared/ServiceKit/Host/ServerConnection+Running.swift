import VerticalsClient
import VerticalsWire

extension ServerConnection {
    /// The one request whose handler is running inline, in the read callback, before its first
    /// suspension. Taken back either by the handler finishing (`take(id)`) or, when it suspended,
    /// by the read callback filing it in `inFlight` (`take()`).
    struct Running {
        // Two fields, not an optional `(id, entry)` tuple: copying that tuple had the Swift runtime
        // build its metadata from its mangled name on a daemon's first request.
        private var currentID: UInt64 = 0
        private var current: InFlight?

        /// Nothing running inline.
        init() {}

        /// Request `id` starts inline with `entry`, set in place: a `Running` made and then
        /// assigned is copied in, a retain of each of the entry's references, and then freed.
        mutating func start(_ id: UInt64, _ entry: consuming InFlight) {
            currentID = id
            current = entry
        }

        /// The id of the request running inline, if any.
        var id: UInt64? { current == nil ? nil : currentID }

        var isEmpty: Bool { current == nil }

        /// The entry of request `id` if it is the one running inline; clears it.
        mutating func take(_ id: UInt64) -> InFlight? {
            guard currentID == id else { return nil }
            return current.take()
        }

        /// The entry of the request running inline (its id is ``id``), if any; clears it.
        mutating func take() -> InFlight? {
            current.take()
        }
    }
}

extension ServerConnection {
    /// A request that passed every check, whose handler may suspend: what ``serveInline(_:)``
    /// needs. (One that answers at once is served as it is prepared, with none of this.) Each
    /// kind of request is a subclass that says how it is served (``serve(_:)``): with its Input
    /// already decoded (``DecodedRequest``), or by its route from a copy of its frame
    /// (``RoutedRequest``).
    ///
    /// A class: it is handed into the handler's task and on, and a struct of this size cost a
    /// retain of each of its references at every copy.
    ///
    /// `@unchecked Sendable` because a class that is not final cannot be checked, and sound: every
    /// stored property here and in its subclasses is a `let` of a `Sendable` type, so nothing in
    /// one is ever written after it is made.
    class Prepared: @unchecked Sendable {
        let id: UInt64
        let context: RequestContext
        let entry: InFlight

        init(id: UInt64, context: RequestContext, entry: InFlight) {
            self.id = id
            self.context = context
            self.entry = entry
        }

        /// Runs the request's handler, which writes its answer to `answer`; each subclass serves its own way.
        nonisolated(nonsending) func serve(_ answer: Answer) async throws {
            preconditionFailure("each kind of prepared request overrides serve(_:)")
        }
    }

    /// A request served by its route, from its own copy of the frame (its handler may suspend,
    /// and hold it past the read that brought it): a streaming operation, one whose body is
    /// decoded off the loop, one an `onSync` handler could not answer at once.
    final class RoutedRequest: Prepared, @unchecked Sendable {
        let message: Message
        let route: Router.Route

        init(id: UInt64, message: Message, route: @escaping Router.Route, context: RequestContext, entry: InFlight) {
            self.message = message
            self.route = route
            super.init(id: id, context: context, entry: entry)
        }

        nonisolated(nonsending) override func serve(_ answer: Answer) async throws {
            try await route(message, context, answer)
        }
    }

    /// A request whose Input was decoded on the loop, in place from the read buffer, before its
    /// task started (``Router/on(_:_:)``): it keeps the Input, not the frame, so its frame is
    /// never copied. The Input's own storage (an array or a long string field) is the vertical's.
    final class DecodedRequest<Input: WireMessage, Output: WireMessage>: Prepared, @unchecked Sendable {
        let input: Input
        let handler: Router.TypedHandler<Input, Output>
        let answerSize: FrameSizeHint

        init(
            id: UInt64, input: Input, handler: @escaping Router.TypedHandler<Input, Output>,
            sized answerSize: FrameSizeHint,
            context: RequestContext, entry: InFlight
        ) {
            self.input = input
            self.handler = handler
            self.answerSize = answerSize
            super.init(id: id, context: context, entry: entry)
        }

        nonisolated(nonsending) override func serve(_ answer: Answer) async throws {
            let output: Output
            do {
                output = try await handler(input, context)
            } catch {
                throw Router.wireForm(of: error)
            }
            answer.respond(output, sized: answerSize)
        }
    }
}
