import VerticalsClient
import VerticalsContract
import VerticalsWire

extension Router {
    /// A route that answers without suspending: decodes the body, runs, and writes the Output's
    /// response frame where `answer` says.
    @usableFromInline typealias SyncRoute =
        @Sendable (_ message: Message, _ context: RequestContext, _ answer: Answer) throws -> Void

    /// Serves `operation` with a `handler` that answers at once, without suspending: one that
    /// computes from its Input and what the vertical holds in memory (a lookup in a cache, a
    /// check, an echo), never one that waits for a store, another vertical or a timer.
    ///
    /// Over a connection it runs straight in the loop's read callback, with no task: no task to
    /// create, start and free, and no executor switches, which are most of what a request costs
    /// that `on` serves without suspending. It runs on the loop thread, so it must not block:
    /// anything that waits belongs in ``on(_:_:)``. A request it answers later than
    /// ``HostConfiguration/syncHandlerWarning`` after receipt is counted
    /// (`verticals_sync_handler_held_loop_total`) and warned about. Errors, metrics, tracing,
    /// ``RequestContext/current`` while it runs and in-process calls
    /// (``serveInProcess(_:_:context:)``) are as for ``on(_:_:)``; a deadline or a cancel cannot
    /// reach it, since it ends within the read that brought it. A request whose body is over
    /// ``offLoopInputBytes`` is the exception: its body is decoded on the blocking-work threads
    /// first, and the handler runs on the loop after, as an ``on(_:_:)`` handler's would.
    ///
    /// ```swift
    /// router.onSync(Clinics.get) { input, _ in try directory.clinic(input.id) }
    /// ```
    @inlinable
    public mutating func onSync<Input, Output>(
        _ operation: Operation<Input, Output>,
        _ handler: @escaping @Sendable (Input, RequestContext) throws -> Output
    ) {
        // Inlinable, so that the route that answers at once is compiled where the vertical
        // routes it, for its own Input and Output: decoding, the handler's call and encoding with
        // no generic indirection (an Output passed and freed through its type's metadata).
        let answerSize = FrameSizeHint()
        let checksEnumerations = Input.schema.containsEnumerations
        let answerAtOnce: SyncRoute = { message, context, answer in
            let input: Input = try Self.input(of: message, checkingEnumerations: checksEnumerations)
            let output: Output
            do {
                output = try handler(input, context)
            } catch {
                throw Self.wireForm(of: error)
            }
            answer.respond(output, sized: answerSize)
        }
        routeSync(operation, handler, answerAtOnce, sized: answerSize)
    }

    /// Routes `operation`, whose route that answers at once is `answerAtOnce`: its route for a
    /// body over ``offLoopInputBytes``, which comes in a task (decoded off the loop, handled on
    /// it, freed off it again, then answered), is made here.
    @usableFromInline
    mutating func routeSync<Input, Output>(
        _ operation: Operation<Input, Output>,
        _ handler: @escaping @Sendable (Input, RequestContext) throws -> Output,
        _ answerAtOnce: @escaping SyncRoute, sized answerSize: FrameSizeHint
    ) {
        requireRoutable(operation)
        let checksEnumerations = Input.schema.containsEnumerations
        let run: @Sendable (Input, RequestContext) throws -> Output = { input, context in
            do {
                return try handler(input, context)
            } catch {
                throw Self.wireForm(of: error)
            }
        }
        let route: Route = { message, context, answer in
            let output = try await Self.withLargeInput(of: message, checkingEnumerations: checksEnumerations) {
                (input: Input) in try run(input, context)
            }
            answer.respond(output, sized: answerSize)
        }
        routes[operation.fullName] = Handler(route: route, answersAtOnce: answerAtOnce)
        operations.append(operation.descriptor)
    }

    /// What a route that answers at once throws, having answered nothing, when its request needs
    /// a handler that suspends: the connection then serves it in a task, through its ``Route``.
    ///
    /// A signal between the route and its connection, never an answer: the connection catches
    /// it and serves the request later. Coded like every framework error, should one ever be
    /// logged.
    struct NotAtOnce: CodedError {
        /// What kind of problem it is: always `notAtOnce`.
        var code: ErrorKind<NotAtOnce> { ErrorKind("notAtOnce") }

        /// What it means.
        var message: String { "the request needs a handler that suspends, so it is served in a task" }
    }

    /// Serves `operation` at once where `atOnce` can answer without suspending (it returns the
    /// Output), and in a task, with `later`, where it returns nil: a lookup answered on the loop
    /// when what it looks up is kept, and worked out off the loop when it is not. `later` runs
    /// for a request `atOnce` declined (its Input decoded again), or whose body is over
    /// ``offLoopInputBytes``. Errors are as for ``onSync(_:_:)``.
    mutating func onSync<Input, Output>(
        _ operation: Operation<Input, Output>,
        atOnce: @escaping @Sendable (Input, RequestContext) throws -> Output?,
        later: nonisolated(nonsending) @escaping @Sendable (Input, RequestContext) async throws -> Output
    ) {
        on(operation, later)
        let answerSize = FrameSizeHint()
        let checksEnumerations = Input.schema.containsEnumerations
        let answerAtOnce: SyncRoute = { message, context, answer in
            let input: Input = try Self.input(of: message, checkingEnumerations: checksEnumerations)
            let output: Output?
            do {
                output = try atOnce(input, context)
            } catch {
                throw Self.wireForm(of: error)
            }
            guard let output else { throw NotAtOnce() }
            answer.respond(output, sized: answerSize)
        }
        routes[operation.fullName]?.answersAtOnce = answerAtOnce
    }
}
