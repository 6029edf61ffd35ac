import Logging
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsObservability
import VerticalsWire

/// One client's connection to a host: decodes its frames, runs its requests
/// concurrently and answers each, in whatever order they finish.
///
/// Loop-confined: created in the listener's accept callback and touched only on the
/// loop thread (handler tasks start inline on it and prefer the loop executor, and every
/// mutation after an `await` is preceded by `loop.preconditionInEventLoop()`), which is what
/// makes the `@unchecked Sendable` below sound: the compiler cannot see executor preference.
///
/// The request path is kept cheap (it is most of a round trip's own cost): a handler starts
/// inline in the read callback (`Task.immediate`), so one that does not suspend answers within
/// the same loop turn without a trip through the loop's queue, and the requests of one read
/// share that task until one suspends (``serveInline(_:)``); deadlines share one timer entry
/// per connection (see `+Deadlines`); the host's handles are read once, at init. Nothing holds a
/// weak reference to this object or its connection: a weak reference gives an object a side
/// table, and every retain of it then takes the runtime's slow path.
final class ServerConnection: @unchecked Sendable {
    struct InFlight {
        /// The handler's task; nil while it runs inline, before its first suspension.
        var task: Task<Void, Never>?
        /// Which request of the connection this is, counted from 1: a caller may use an id again
        /// once its request was cancelled or timed out, while that request's handler still runs;
        /// its late answer must not take the new request's entry (``finished(_:_:serial:answeredAtOnce:)``).
        let serial: UInt64
        let deadline: MonotonicInstant?
        let started: MonotonicInstant
        let counts: OperationCounts
        /// A stream's: ended, not waited for, when the host drains (``beginDraining()``).
        let isStream: Bool
        /// The operation's full name when its calls are audited.
        var audited: String? = nil
        /// Counted in the host's ``IdleExit`` while it runs.
        var keepsUp = false
        /// The request's context when the host traces (its server span ends with the entry).
        var traced: RequestContext? = nil
    }

    let connection: Connection
    /// Where this connection sits in its host's ``ServiceHost/connections`` (the host's to set).
    var slot = 0
    /// Who the caller is, for the limits counted per caller (``Connection/callerKey``), read once at admission.
    let caller: String?
    private unowned let host: ServiceHost
    // The host's parts the request path uses, read once rather than through `host` per request.
    private let served: [String: ServedOperation]
    private let servedNames: ServedNames
    /// What this connection's caller may call, decided once at admission (``CallerGrant``).
    let grant: CallerGrant
    /// ``grant`` as one flag per served operation (``ServedOperation/index``); nil when the
    /// caller may call every operation that is not operator-only.
    private let allowedByIndex: [Bool]?
    /// Set once a route refusal on this connection was logged: one line per connection, so a
    /// caller repeating a refused call cannot flood the log (operator-only ones are audited anyway).
    private var loggedRouteRefusal = false
    /// The operation the last request named (``servedOperation(named:)``).
    private var lastServed: ServedOperation?
    /// This loop's request counts (the host's, read once).
    private let counts: LoopCounts
    let timers: TimerQueue
    let loop: EventLoop
    private let maxInFlight: Int
    private let maxOutboundBytes: Int
    /// ``HostConfiguration/syncHandlerWarning``, in nanoseconds.
    private let syncHandlerWarning: Int64
    private let sweepRest: SweepRest
    /// The host's idle exit, when it has one (read once, as the other handles).
    private let idleExit: IdleExit?
    /// Where server spans go; nil when the host traces nothing (`VERTICALS_TRACING=off`).
    let traces: TraceRecorder?
    /// This loop's lane of ``traces``: the request path records there (ids, summaries).
    let traceLane: TraceLane?
    /// Serving, draining with the host, or closing after its last frame (``close(correlationID:_:)``:
    /// that error is the last frame sent, so answers of requests still running are dropped,
    /// PROTOCOL.md § 4). Read per request, so kept here rather than asked of `host`.
    private(set) var machine: ServerConnectionStateMachine
    /// Whether the connection's last frame was written.
    var isClosing: Bool { machine.isClosing }
    /// The host's name, for the hand-over's error.
    var serviceName: String { host.configuration.name }
    var inFlight = InFlightRequests()
    /// The request whose handler runs inline now, before its first suspension (not yet in `inFlight`).
    private var running = Running()
    /// Bumped as ``serveInline(_:)``'s task starts inline in the read callback and again once it
    /// returns there, so a task that suspended and resumed later sees it is no longer inline.
    private var inlineBatch: UInt64 = 0
    /// The request ``serveInline(_:)`` hands its task: left here rather than captured, so that the
    /// task's closure captures the connection alone: each capture more is a retain and a release
    /// more for every request.
    private var inlineFirst: Prepared?
    /// The ``InFlight/serial`` of the last request admitted.
    private var serials: UInt64 = 0
    /// The timer entry that checks the earliest deadline of a request in flight (see `+Deadlines`).
    var deadlineCheck = DeadlineCheck()
    private(set) var logger: Logger
    /// The handshake, frame and idle clocks the host's sweep looks at (see `+Timeouts`).
    // `@exclusivity(unchecked)`: counted on every frame, where a checked access through a method
    // costs about 60 instructions a request. Sound because this object is loop-confined (above)
    // and the machine's methods never call back into it, so no two accesses overlap.
    @exclusivity(unchecked) var timeouts = ConnectionTimeouts(arrived: .now)

    init(connection: Connection, host: ServiceHost, caller: String?) {
        self.connection = connection
        self.caller = caller
        self.host = host
        self.served = host.served
        self.servedNames = host.servedNames
        self.counts = host.counts
        self.sweepRest = host.sweepRest
        self.idleExit = host.idleExit
        self.traces = host.traces
        self.traceLane = host.traceLane
        self.timers = host.timers
        self.loop = host.loop
        self.maxInFlight = host.configuration.maxInFlightPerConnection
        self.maxOutboundBytes = host.configuration.limits.maxOutboundBytes
        self.syncHandlerWarning = host.configuration.syncHandlerWarning.wholeNanoseconds
        self.machine = ServerConnectionStateMachine(hostIsDraining: host.isDraining)
        let grant = host.configuration.access.grant(
            peer: connection.peerCredentials, peerName: connection.peerName, secure: connection.isSecure)
        self.grant = grant
        if grant.isOperator || grant.operations == nil || grant.operations?.contains("*") == true {
            self.allowedByIndex = nil
        } else {
            var flags = [Bool](repeating: false, count: host.served.count)
            for operation in host.served.values {
                flags[operation.index] = grant.allows(operation.routeName, operatorOnly: false)
            }
            self.allowedByIndex = flags
        }
        var logger = host.logger
        logger[metadataKey: "connection"] = "\(connection.id)"
        self.logger = logger
    }

    /// How many requests are being served.
    var inFlightCount: Int { inFlight.count + (running.isEmpty ? 0 : 1) }

    func start() {
        // Strong captures: the connection drops its handlers once closed, which ends the cycle.
        connection.onFrameBytes = { [self] frame in received(frame) }
        connection.onFrameError = { [self] error in
            protocolError(correlationID: 0, "\(error)")
        }
        connection.onClose = { [self] _ in closed() }
        connection.startReading()
    }

    /// A frame, read in place: decoded here, and let go before the connection reads again (a
    /// typed handler's request keeps its decoded Input, ``DecodedRequest``; a request served by
    /// its route from a task keeps a copy, ``Message/detached()``).
    private func received(_ frame: ByteReader) {
        guard let request = prepare(frame) else { return }
        serveInline(request)
    }

    /// Serves request `id` (the connection's `serial`th), running inline as `running`, with
    /// its handler that does not suspend (``Router/onSync(_:_:)``): right here, on the loop
    /// thread, with no task and no ``Prepared``. False when the handler could not answer without
    /// suspending (``Router/NotAtOnce``): it answered nothing, and the request is still running.
    @inline(never)
    private func serveAtOnce(
        _ id: UInt64, _ message: Message, _ context: RequestContext, serial: UInt64, _ answer: Router.SyncRoute
    ) -> Bool {
        do {
            try Serving.withThreadRequest(context) {
                try answer(message, context, Answer(target: self, id: id, serial: serial, atOnce: true))
            }
        } catch is Router.NotAtOnce {
            return false
        } catch {
            finished(id, failed(error, context), serial: serial, answeredAtOnce: true)
        }
        return true
    }

    /// The error that answers a request whose handler threw `error`.
    @inline(never)
    private func failed(_ error: any Error, _ context: RequestContext) -> ServiceError {
        switch error {
        case let error as ServiceError: error
        case is CancellationError: ServiceError(.cancelled, "the request was cancelled")
        default: refusal(for: error, context)
        }
    }

    /// Deals with one frame: a request whose handler may suspend is returned, ready to serve;
    /// anything else (one whose handler answers at once, a cancel, a ping, a request refused
    /// before it runs, a broken frame) is answered here, and nil returned.
    private func prepare(_ frame: ByteReader) -> Prepared? {
        timeouts.frameReceived()
        if sweepRest.isResting { timeouts.frameWhileSweepRests(now: .now) }
        let message: Message
        do {
            message = try Message(frame: frame) { name in servedOperation(named: name)?.name }
        } catch {
            protocolError(correlationID: 0, "\(error)")
            return nil
        }
        let envelope = message.envelope
        switch envelope.kind {
        case .request:
            return request(message)
        case .cancel:
            if let entry = inFlight.removeValue(forKey: envelope.correlationID) {
                entry.task?.cancel()
                count(entry, .cancelled)
                perform(machine.requestEnded(remaining: inFlightCount))
            }
        case .ping:
            connection.write(
                Message.frame(Envelope(kind: .pong, correlationID: envelope.correlationID), rawBody: EmptyCollection()))
        case .response, .error, .event, .pong:
            protocolError(
                correlationID: envelope.correlationID, "a client may not send a \(envelope.kind) frame to a server")
        }
        return nil
    }

    private func request(_ message: Message) -> Prepared? {
        let envelope = message.envelope
        let id = envelope.correlationID
        // Id 0 names the connection (an error on it is about the connection), so no request may use it.
        guard id != 0 else {
            protocolError(
                correlationID: 0, "a request may not use correlation id 0: it names the connection; start ids at 1")
            return nil
        }
        // Refusing only the second request would give one id two final answers (the refusal, then the
        // first one's), which the client could not tell apart: its ids are broken, so the connection ends.
        guard !inFlight.contains(id), running.id != id else {
            protocolError(
                correlationID: id,
                "correlation id \(id) is already in flight on this connection; use a fresh id per request")
            return nil
        }
        let received = MonotonicInstant.now
        let operation = servedOperation(named: envelope.operation)
        let counts = operation?.counts ?? self.counts.unrouted
        counts.requested()
        let arrival = machine.requestArrived(inFlight: inFlightCount)
        guard arrival.isEmpty else {
            // Left unread: answered by the next process (see ``handOver()``), or after the last frame, by no one.
            perform(arrival)
            return nil
        }
        guard let operation else {
            counts.failed(.unimplemented)
            recordRefusal(envelope, .unimplemented, receivedAt: received)
            answer(
                id,
                ServiceError(
                    .unimplemented, "\(host.configuration.name) has no operation \"\(envelope.operation)\"",
                    details: [ErrorDetail("operation", envelope.operation)]))
            return nil
        }
        // The routes: an operator-only operation, or one the caller's depends_on does not name.
        if let refusal = routeRefusal(operation, named: envelope.operation) {
            counts.failed(refusal.code)
            recordRefusal(envelope, refusal.code, receivedAt: received)
            if let audited = operation.audited { audit(audited, "\(refusal.code)") }
            answer(id, refusal)
            return nil
        }
        // The table knows which operations need an identified caller: no second lookup by name for the others.
        if operation.needsIdentity,
            let refusal = host.operationRefusal(envelope.operation, on: connection, isInternal: operation.isInternal)
        {
            counts.failed(refusal.code)
            recordRefusal(envelope, refusal.code, receivedAt: received)
            if let audited = operation.audited { audit(audited, "\(refusal.code)") }
            answer(id, refusal)
            return nil
        }
        guard inFlight.count < maxInFlight else {
            counts.failed(.resourceExhausted)
            recordRefusal(envelope, .resourceExhausted, receivedAt: received)
            answer(
                id,
                ServiceError(
                    .resourceExhausted, "more than \(maxInFlight) requests in flight on one connection"))
            return nil
        }
        let now = received
        let deadline = Deadline(wireMicroseconds: envelope.deadlineMicroseconds, receivedAt: now)
        let context: RequestContext
        if let traceLane {
            let trace = traceLane.serverIdentity(traceparent: envelope.traceparent)
            var span: VerticalsSpan? = nil
            if trace.sampled, let traces { span = serverSpan(trace, message, traces, traceLane, now) }
            context = RequestContext(
                operation: envelope.operation, correlationID: id, deadline: deadline,
                traceparent: envelope.traceparent, peer: connection.peerCredentials, caller: caller,
                callerIsOperator: grant.isOperator, logger: logger, events: self,
                trace: trace, span: span)
        } else {
            context = RequestContext(
                operation: envelope.operation, correlationID: id, deadline: deadline,
                traceparent: envelope.traceparent, peer: connection.peerCredentials, caller: caller,
                callerIsOperator: grant.isOperator, logger: logger, events: self)
        }
        serials &+= 1
        var entry = InFlight(
            task: nil, serial: serials, deadline: deadline?.instant, started: now, counts: counts,
            isStream: operation.isStream,
            audited: operation.audited, traced: traceLane == nil ? nil : context)
        if let idleExit, operation.keepsDaemonUp {
            entry.keepsUp = true
            idleExit.began()
        }
        if let answer = operation.answersAtOnce, message.bodyCount <= Router.offLoopInputBytes {
            // Moved, not copied: an entry copied is a retain of each of its references, and a
            // release of each when the copy goes.
            running.start(id, consume entry)
            if serveAtOnce(id, message, context, serial: serials, answer) { return nil }
            // Its handler could not answer without suspending, and answered nothing: served in a
            // task below, as an `on` handler is, with the entry it still has.
            guard let declined = running.take() else { return nil }
            entry = declined
        }
        if let prepare = operation.prepare, !Router.decodesOffLoop(message) {
            // Its Input decoded here, in place: the request keeps it, and not the frame.
            do {
                return try prepare(message, id, context, entry)
            } catch {
                refuseInput(id, error, entry: entry, serial: serials)
                return nil
            }
        }
        // A copy of the frame: its handler may suspend, and hold it past this read.
        return RoutedRequest(
            id: id, message: message.detached(), route: operation.route, context: context, entry: entry)
    }

    /// Answers request `id` (the connection's `serial`th), whose body is not its Input, with
    /// `error`, as its route would have from its task.
    @inline(never)
    private func refuseInput(_ id: UInt64, _ error: ServiceError, entry: consuming InFlight, serial: UInt64) {
        running.start(id, entry)
        finished(id, error, serial: serial)
    }

    /// The operation `name` routes to, if any: the last one looked up when the name repeats (a
    /// connection mostly calls one operation), else from the table. Comparing a name costs a
    /// few instructions where hashing it for the table cost about 450. A name that is not ASCII
    /// routes nowhere (every route is a name of ``WireName``'s grammar) and is neither compared
    /// nor hashed: Swift would normalise it to do either, at a cost the peer chose.
    private func servedOperation(named name: String) -> ServedOperation? {
        guard WireName.isASCII(name) else { return nil }
        if let last = lastServed, last.name == name { return last }
        guard let operation = served[name] else { return nil }
        lastServed = operation
        return operation
    }

    /// The operation named by `bytes`, a request's envelope's, before any `String` is made of
    /// them: the last one again, or from the table by the bytes (``ServedNames``). The envelope
    /// then holds the operation's own ``ServedOperation/name``, which ``servedOperation(named:)``
    /// finds as the last one again with no comparison of the bytes (the same string).
    private func servedOperation(named bytes: UnsafeRawBufferPointer) -> ServedOperation? {
        if let last = lastServed, last.isNamed(bytes) { return last }
        guard let operation = servedNames.operation(named: bytes) else { return nil }
        lastServed = operation
        return operation
    }

    /// Serves `first`, and then every request already received after it, in one task that runs
    /// inline in the read callback until a handler suspends.
    ///
    /// While the task runs inline nothing else runs on this thread (no cancel, deadline or close
    /// can reach a request), so a request is filed in `inFlight` only if its handler suspends:
    /// one answered within this turn costs no dictionary insert or removal. Requests of one read
    /// answered without suspending share one task: no task to create, start and free for each.
    /// When a handler suspends, its task is left to that request alone (a cancel or deadline
    /// cancels the task), and the frames after it go back to the read callback, each to be
    /// served the same way.
    private func serveInline(_ first: Prepared) {
        inlineBatch &+= 1
        running.start(first.id, first.entry)
        inlineFirst = first
        // Runs on this (the loop) thread up to its first suspension, and on the loop after it: so
        // it takes `inlineFirst` and reads `inlineBatch` before anything else can change them.
        let task = Task.immediate(executorPreference: self.loop) { [self] in
            let batch = inlineBatch
            var next = inlineFirst.take()
            while let request = next {
                // The handler's scope written out here, not in a function, and its task-local
                // binding around the route alone (a closure that small is inlined): entering or
                // returning from an async function or closure is one more executor switch, and
                // each takes the task's status-record lock.
                do {
                    // The route writes its answer itself (``answer(_:expectedBytes:_:)``).
                    try await Serving.$request.withValue(request.context) {
                        try await request.serve(
                            Answer(target: self, id: request.id, serial: request.entry.serial, atOnce: false))
                    }
                } catch {
                    loop.preconditionInEventLoop()
                    finished(request.id, failed(error, request.context), serial: request.entry.serial)
                }
                // Only while still inline: once a handler suspended, the frames after it belong to
                // the read callback again (its order, its backpressure).
                guard inlineBatch == batch else { return }
                next = nextBufferedRequest()
            }
        }
        assert(inlineFirst == nil, "the inline task starts at once, on this thread, and takes its request")
        inlineBatch &+= 1
        // Still running: the handler suspended, so a cancel or deadline may need its task.
        if let suspendedID = running.id, var entry = running.take() {
            guard !connection.isClosed else {
                // Closed while it ran inline (`closed()` could not see it): it serves no one now.
                task.cancel()
                count(entry, .cancelled)
                return
            }
            entry.task = task
            inFlight.insert(entry, id: suspendedID)
            if let deadline = entry.deadline { watchDeadline(deadline) }
        }
    }

    /// The next request already received, prepared and running inline; nil when no whole frame
    /// is buffered.
    ///
    /// Kept out of the inline task's closure, as are the other synchronous steps it takes
    /// (``serveAtOnce(_:_:_:serial:_:)``, ``failed(_:_:)``, ``finished(_:_:serial:answeredAtOnce:)``): every
    /// local of an async function lives in its frame, which the task's allocator holds. Inlined,
    /// they made the closure's frame 864 bytes, past the task's first slab, so each request's task
    /// allocated three more slabs with `malloc`; out of line, their locals are on the thread's stack.
    @inline(never)
    private func nextBufferedRequest() -> Prepared? {
        while let frame = connection.nextBufferedFrameBytes() {
            if let request = prepare(frame) {
                running.start(request.id, request.entry)
                return request
            }
        }
        return nil
    }

    /// The answer to a handler's untyped `error` (logged): a store failure's own code, else `internal`.
    private func refusal(for error: any Error, _ context: RequestContext) -> ServiceError {
        context.logger.error("handler failed: \(error)")
        return host.configuration.store?.serviceError(for: error, operation: context.operation)
            ?? ServiceError(.internal, "internal error while serving \(context.operation)")
    }

    /// Request `id` (the connection's `serial`th) is answered with `error`: written in place
    /// (``writeError(_:_:)``), unless the request was already answered (its deadline passed, or
    /// the caller cancelled it, and maybe used its id again since), then counted.
    @inline(never)
    private func finished(_ id: UInt64, _ error: ServiceError, serial: UInt64, answeredAtOnce: Bool = false) {
        guard let entry = owed(id, serial: serial) else { return }
        var length = 0
        if answers {
            length = writeError(id, error)
            closeIfRepliesPileUp()
        }
        ended(entry, error.code, responseBytes: length, answeredAtOnce: answeredAtOnce)
    }

    /// The entry of request `id` (the connection's `serial`th), taken, if its answer is still owed:
    /// nil when its deadline passed or the caller cancelled it (that answer was already given).
    private func owed(_ id: UInt64, serial: UInt64) -> InFlight? {
        if let inline = running.take(id) { return inline }
        return inFlight.removeValue(forKey: id, serial: serial)
    }

    /// Whether an answer written now reaches the caller.
    private var answers: Bool { !connection.isClosed && machine.answers }

    /// Closes the connection when the replies it owes pile up past ``maxOutboundBytes``.
    private func closeIfRepliesPileUp() {
        let limit = maxOutboundBytes
        if connection.queuedByteCount > limit {
            // Backpressure stopped its reading, yet replies already owed pile up: it does not read.
            logger.notice("closing a connection that does not read its replies: over \(limit) bytes queued")
            connection.close()
        }
    }

    /// Counts `entry`'s request as answered, and tells the machine.
    private func ended(_ entry: InFlight, _ failure: ErrorCode?, responseBytes: Int, answeredAtOnce: Bool) {
        count(entry, failure, responseBytes: responseBytes, answeredAtOnce: answeredAtOnce)
        perform(machine.requestEnded(remaining: inFlightCount))
    }

    /// Carries out what the machine answered, in the order ``ServerConnectionStateMachine/Actions`` lists.
    /// `streams`: the open streams' ids, for ``ServerConnectionStateMachine/Actions/endStreams``.
    private func perform(_ actions: ServerConnectionStateMachine.Actions, streams: [UInt64] = []) {
        guard !actions.isEmpty else { return }
        if actions.contains(.endStreams) { endStreams(streams) }
        if actions.contains(.handOver) { handOver() }
        if actions.contains(.tellHost) { host.requestFinished() }
    }

    /// Counts an answered (or abandoned) request: its latency and its error code if any.
    /// Every request that began ends here exactly once, which is what keeps ``IdleExit``'s count true.
    /// `answeredAtOnce`: by a handler that ran on the loop (``Router/onSync(_:_:)``), whose time held it.
    /// Inlined into its callers: each passes the entry it holds, which a call would copy.
    @inline(__always)
    private func count(
        _ entry: InFlight, _ failure: ErrorCode?, responseBytes: Int? = nil, answeredAtOnce: Bool = false
    ) {
        if entry.keepsUp { idleExit?.ended() }
        let now = MonotonicInstant.now
        let took = now.nanoseconds - entry.started.nanoseconds
        entry.counts.took(nanoseconds: took)
        if answeredAtOnce, took > syncHandlerWarning { heldTheLoop(entry.counts, nanoseconds: took, at: now) }
        if let failure { entry.counts.failed(failure) }
        if let context = entry.traced {
            endServerSpan(context, started: entry.started, ended: now, failure, responseBytes: responseBytes)
        }
        if let audited = entry.audited { audit(audited, failure.map { "\($0)" } ?? "ok") }
    }

    /// Logs the one audit line of a call of `operation` on this connection (``AuditLine``),
    /// naming the caller by its uid or its certificate.
    private func audit(_ operation: String, _ outcome: String) {
        let peer = connection.peerCredentials
        let access = host.configuration.access
        let certificate = connection.isSecure ? connection.peerName ?? "" : nil
        logger.notice(
            "\(AuditLine.text(service: host.configuration.name, operation: operation, peer: peer, callerName: access.callerName(peer) ?? (connection.isSecure ? grant.caller : nil), outcome: outcome, certificate: certificate))"
        )
    }

    /// Why this connection's caller may not call `operation` by the routes, or nil: a flag or
    /// two per request, the refusal built only when there is one.
    @inline(__always)
    private func routeRefusal(_ operation: ServedOperation, named name: String) -> ServiceError? {
        let refusal: ServiceError
        if operation.operatorOnly, !grant.isOperator {
            refusal = RouteRefusal.operatorOnly(caller: grant.caller, operation: name, service: host.configuration.name)
        } else {
            guard let allowedByIndex, !allowedByIndex[operation.index] else { return nil }
            let service = host.configuration.name
            let declared = host.configuration.access.declaredOperations(of: grant.vertical).map {
                $0 == "*" ? service : "\(service).\($0)"
            }
            refusal = RouteRefusal.undeclaredRoute(
                caller: grant.vertical ?? grant.caller, operation: name, service: service, declared: declared)
        }
        if !loggedRouteRefusal {
            loggedRouteRefusal = true
            logger.notice(
                "refused \(name) to \(grant.caller): \(refusal.message) (further refusals on this connection are not logged)"
            )
        }
        return refusal
    }

    /// The host starts draining: requests in flight may finish, but a stream, which may never
    /// end by itself, is ended now with a retryable `unavailable` (its caller may call again
    /// once the service is back), so it does not hold the drain until its timeout. A connection
    /// with nothing in flight is handed over at once (``handOver()``).
    func beginDraining() {
        var streams: [UInt64] = []
        inFlight.forEach { id, entry in if entry.isStream { streams.append(id) } }
        perform(machine.hostBeganDraining(inFlight: inFlightCount, streams: streams.count), streams: streams)
    }

    /// Ends the open streams `streams` (request ids) with `unavailable`: a drain does not wait
    /// for a stream, which may never end on its own.
    private func endStreams(_ streams: [UInt64]) {
        for id in streams {
            guard let entry = inFlight.removeValue(forKey: id) else { continue }
            entry.task?.cancel()
            count(entry, .unavailable)
            answer(
                id,
                ServiceError(
                    .unavailable, "\(host.configuration.name) is shutting down: the stream ends here; call again later",
                    retryable: true))
        }
    }

    /// Answers request `id` `deadlineExceeded` and cancels its handler (from the deadline check).
    func deadlinePassed(_ id: UInt64) {
        guard let entry = inFlight.removeValue(forKey: id) else { return }
        count(entry, .deadlineExceeded)
        entry.task?.cancel()
        answer(id, ServiceError(.deadlineExceeded, "the caller's deadline passed before an answer was ready"))
        perform(machine.requestEnded(remaining: inFlightCount))
    }

    private func answer(_ id: UInt64, _ error: ServiceError) {
        guard !connection.isClosed, machine.answers else { return }
        writeError(id, error)
    }

    private func protocolError(correlationID: UInt64, _ reason: String) {
        close(correlationID: correlationID, ServiceError(.protocolError, reason))
    }

    /// Answers `error` on `correlationID` (0: about the connection), then closes once it is written.
    ///
    /// That error is the last frame the connection carries: requests still in flight are
    /// cancelled and never answered, so no id gets a second final answer after it.
    func close(correlationID: UInt64 = 0, _ error: ServiceError) {
        guard machine.closeRequested() else { return }
        logger.notice("closing connection: \(error.code): \(error.message)")
        if !connection.isClosed { writeError(correlationID, error) }
        abandonInFlight()
        connection.closeLingering(timers: timers)
    }

    /// Cancels every request in flight; their answers, if any come, are dropped (`finished`).
    private func abandonInFlight() {
        let abandoned = inFlight
        inFlight = InFlightRequests()
        abandoned.forEach { _, entry in
            entry.task?.cancel()
            count(entry, .cancelled)
        }
        deadlineCheck.cancel(timers)
    }

    private func closed() {
        abandonInFlight()
        host.connectionClosed(self)
    }

    /// Writes the error frame answering `id` in place, as an Output is (``answer(_:expectedBytes:_:)``),
    /// and returns its length.
    @discardableResult
    private func writeError(_ id: UInt64, _ error: ServiceError) -> Int {
        connection.writeErrorFrame(id, error)
    }
}

extension Connection {
    /// Writes the error frame answering `id` (0: about the connection) in place: encoded straight
    /// into the bytes this turn sends (``Connection/writeFrame(expectedBytes:_:)``), with no array
    /// of its own. Returns the frame's length.
    @discardableResult
    func writeErrorFrame(_ id: UInt64, _ error: ServiceError) -> Int {
        // Room for the header, the envelope, the code and flag, and the text: a guess, which a
        // longer frame outgrows at the cost of the cork growing once.
        var expected = 64 + error.message.utf8.count
        for detail in error.details { expected += 8 + detail.key.utf8.count + detail.value.utf8.count }
        return writeFrame(expectedBytes: expected) { writer in
            Message.appendFrame(Envelope(kind: .error, correlationID: id), body: error, to: &writer)
        }
    }
}

extension ServerConnection: AnswerTarget {
    /// Writes a route's answer in place, into the bytes the connection sends
    /// (``Connection/writeFrame(expectedBytes:_:)``), if it is still owed, and counts the request.
    @inline(never)
    func answer(_ request: Answer, expectedBytes: Int, _ encode: (inout ByteWriter) -> Void) -> Int {
        loop.preconditionInEventLoop()
        guard let entry = owed(request.id, serial: request.serial) else { return 0 }
        var length = 0
        if answers {
            length = connection.writeFrame(expectedBytes: expectedBytes, encode)
            closeIfRepliesPileUp()
        }
        ended(entry, nil, responseBytes: length, answeredAtOnce: request.atOnce)
        return length
    }
}
