import VerticalsClient
import VerticalsContract
import VerticalsWire

/// The table from operation name to handler that a vertical's `Endpoint` builds.
///
/// ```swift
/// var router = Router(service: Identity.self)
/// router.on(Identity.login) { input, context in try await useCase.execute(input) }
/// ```
public struct Router: Sendable {
    /// A handler with its types erased: decodes the body, runs, and writes the Output's response
    /// frame where `answer` says (``Answer/respond(_:sized:)``).
    ///
    /// `nonisolated(nonsending)`, as the handlers are: a route runs on the executor of the task that
    /// calls it (the loop's), so entering it is a plain call. A `@concurrent` one would hop to the
    /// generic executor first, and every such hop asks the runtime for the task's executor
    /// preference under the task's status-record lock.
    typealias Route =
        nonisolated(nonsending) @Sendable (_ message: Message, _ context: RequestContext, _ answer: Answer) async throws
        -> Void

    /// A typed handler, as ``on(_:_:)`` takes it.
    typealias TypedHandler<Input, Output> =
        nonisolated(nonsending) @Sendable (Input, RequestContext) async throws -> Output

    /// Makes request `id` ready to serve from `message`, read in place, with its Input decoded
    /// now, on the loop, before its task starts: the request keeps the Input, so its frame is not
    /// copied. Throws `invalidInput` when the body is not one.
    typealias Preparing =
        @Sendable (
            _ message: Message, _ id: UInt64, _ context: RequestContext, _ entry: ServerConnection.InFlight
        ) throws(ServiceError) -> ServerConnection.Prepared

    /// The vertical served.
    public let service: String
    /// The vertical's one-sentence summary, for `daemon.describe` (empty when made from a name).
    public let summary: String
    /// Each route in a ``Handler`` (a closure stored straight in a dictionary is kept at the most
    /// general abstraction, and every call then went through a thunk that hopped executors).
    var routes: [String: Handler] = [:]
    /// The descriptors of every operation routed, for introspection.
    public internal(set) var operations: [OperationDescriptor] = []
    /// Full names of the vertical's privileged operations: each call is logged once with the
    /// caller and the outcome (``AuditLine``), besides ``PeerAccess/auditedOperations``.
    public var auditedOperations: Set<String> = []

    /// A router for vertical `service`.
    public init(service: String, summary: String = "") {
        self.service = service
        self.summary = summary
    }

    /// A router for `contract`'s vertical.
    public init(service contract: any ServiceContract.Type) {
        self.service = contract.name
        self.summary = contract.summary
    }

    /// Serves `operation` with `handler`.
    ///
    /// The handler throws the typed failures it means: a `ServiceError`, or a domain error that
    /// is ``ServiceErrorConvertible`` (answered as its ``ServiceErrorConvertible/serviceError``).
    /// Anything else it throws is answered as `internal` (and logged), never leaked to the caller.
    /// It runs on the host's loop, where the request arrived (`nonisolated(nonsending)`: no
    /// executor hop).
    public mutating func on<Input, Output>(
        _ operation: Operation<Input, Output>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Input, RequestContext) async throws -> Output
    ) {
        requireRoutable(operation)
        let answerSize = FrameSizeHint()
        let checksEnumerations = Input.schema.containsEnumerations
        var routed = Handler { message, context, answer in
            // The same few lines twice rather than a shared function: passing the handler to one
            // would reabstract it, an allocation on every request.
            guard !Self.decodesOffLoop(message) else {
                let output = try await Self.withLargeInput(of: message, checkingEnumerations: checksEnumerations) {
                    (input: Input) in
                    do {
                        return try await handler(input, context)
                    } catch {
                        throw Self.wireForm(of: error)
                    }
                }
                return answer.respond(output, sized: answerSize)
            }
            let input: Input = try Self.input(of: message, checkingEnumerations: checksEnumerations)
            let output: Output
            do {
                output = try await handler(input, context)
            } catch {
                throw Self.wireForm(of: error)
            }
            answer.respond(output, sized: answerSize)
        }
        // A connection's way for a body decoded on the loop: the route above serves the rest. The
        // request's class is named here, once: these closures are not specialised for the
        // vertical's types, and naming it in one would look its metadata up on every request.
        let decoded = ServerConnection.DecodedRequest<Input, Output>.self
        routed.prepare = { message, id, context, entry throws(ServiceError) in
            decoded.init(
                id: id, input: try Self.input(of: message, checkingEnumerations: checksEnumerations),
                handler: handler, sized: answerSize, context: context, entry: entry)
        }
        routes[operation.fullName] = routed
        operations.append(operation.descriptor)
    }

    /// Stops the process unless `operation` may be routed here: this vertical's (or a built-in),
    /// and not routed yet.
    func requireRoutable<Input, Output>(_ operation: Operation<Input, Output>) {
        precondition(
            operation.service == service || operation.service == Daemon.name,
            "\(operation.fullName) routed on the \(service) router")
        precondition(routes[operation.fullName] == nil, "\(operation.fullName) routed twice")
    }

    /// Request bodies longer than this are decoded on the daemon's blocking-work threads
    /// (``Offload/run(_:)``), not on the loop: decoding costs the loop what a body of this size
    /// costs, whatever the frame limit. The same bound as `ServiceClient.offLoopAnswerBytes`.
    public static let offLoopInputBytes = ServiceClient.offLoopAnswerBytes

    /// Whether `message`'s body is over ``offLoopInputBytes``: decoded, and freed, off the loop
    /// (``withLargeInput(of:checkingEnumerations:_:)``).
    static func decodesOffLoop(_ message: Message) -> Bool {
        message.bodyCount > offLoopInputBytes
    }

    /// Runs `body` with the Input of a request whose body is over ``offLoopInputBytes``: decoded
    /// on the blocking-work threads (`resourceExhausted` when their queue is full), `body` on the
    /// caller's loop, and the Input freed on those threads again once `body` returns, before
    /// its result (the Output to answer with) or its error comes back (``OffLoopInput``). A
    /// smaller body is decoded, and freed, where it is (``input(of:checkingEnumerations:)``).
    nonisolated(nonsending) static func withLargeInput<Input: WireMessage, Result>(
        of message: Message, checkingEnumerations: Bool,
        _ body: nonisolated(nonsending) (Input) async throws -> Result
    ) async throws -> Result {
        let held = try await Offload.run { () throws -> OffLoopInput<Input> in
            OffLoopInput(try input(of: message, checkingEnumerations: checkingEnumerations))
        }
        let result: Result
        do {
            result = try await body(held.input)
        } catch {
            await held.free()
            throw error
        }
        await held.free()
        return result
    }

    /// The request's Input, or `invalidInput` naming what is wrong with its body; with
    /// `checkingEnumerations` (an Input with an enumeration somewhere), also `invalidInput` when
    /// it names a case this vertical does not know.
    ///
    /// The direct decoder keeps such a case as `unknown(raw)` (right for an Output an older
    /// client reads); an Input with one cannot be acted on, so no vertical has to remember
    /// to refuse it. Only Inputs with an enumeration somewhere pay for the scan.
    @inlinable
    static func input<Input: WireMessage>(
        of message: Message, checkingEnumerations: Bool
    ) throws(ServiceError) -> Input {
        let input: Input
        do {
            input = try message.decodeBody(as: Input.self)
        } catch {
            // The field at fault (`password`, `hours.opens`), when the error is about one.
            let prefix = Input.schema.name + "."
            let field = error.fieldPath.flatMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
            throw ServiceError(
                .invalidInput, "the body is not a valid \(Input.schema.name): \(error)",
                details: field.map { [ErrorDetail("field", $0)] } ?? [])
        }
        guard checkingEnumerations else { return input }
        do {
            try Input.schema.requireKnownEnumerations(
                inBody: message.payload, from: message.bodyStart, to: message.bodyEnd)
        } catch {
            throw ServiceError(
                .invalidInput, "\(Input.schema.name): \(error); correct it and try again",
                details: [ErrorDetail("field", error.path)])
        }
        return input
    }

    /// What a handler's thrown `error` is on the wire: a ``ServiceErrorConvertible`` error's
    /// ``ServiceErrorConvertible/serviceError``; anything else as it is (the host answers a
    /// cancellation as `cancelled`, a store failure by its kind, the rest as `internal`).
    /// The one place a domain error becomes a wire error, for plain and streaming routes.
    @inlinable
    static func wireForm(of error: any Error) -> any Error {
        (error as? any ServiceErrorConvertible)?.serviceError ?? error
    }

    /// Whether `fullName` already has a handler (a vertical may override a built-in).
    func routes(_ fullName: String) -> Bool {
        routes[fullName] != nil
    }

    /// The route for `operation`, if any.
    func route(for operation: String) -> Route? {
        routes[operation]?.route
    }

    /// One route, held in a struct (see ``routes``).
    struct Handler: Sendable {
        let route: Route
        /// Whether it streams (``onStream(_:_:)``): a draining host ends it rather than wait for it.
        var isStream = false
        /// The same route without suspending, for a handler routed with ``onSync(_:_:)``: a
        /// connection runs it with no task.
        var answersAtOnce: SyncRoute? = nil
        /// How a connection prepares a request whose body it decodes on the loop, for a typed
        /// handler (``on(_:_:)``); nil where the route reads the frame itself.
        var prepare: Preparing? = nil
    }
}
