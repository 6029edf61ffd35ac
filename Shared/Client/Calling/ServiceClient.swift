import Logging
import Synchronization
import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// Calls other verticals: `call(Operation, input) async throws(ServiceError) -> Output`.
///
/// One connection per callee, opened on first use, shared by all calls (many in flight,
/// answered out of order), and opened again after the callee restarts. Every failure is
/// a typed `ServiceError`: `unavailable` when the callee cannot be reached or drops the
/// connection, `deadlineExceeded` when no answer came in time, `cancelled` when the
/// calling task was cancelled.
///
/// ```swift
/// let client = ServiceClient(loop: loop, sockets: .from(environment: ProcessEnvironment.current))
/// let principal = try await client.call(Identity.authenticate, .init(token: token))
/// ```
///
/// Deadlines: a call made while serving a request (``Serving/current``) carries that
/// request's remaining deadline, never a fresh one; `timeout` can only shorten it. Spans: a
/// client given a ``CallTracing`` (a daemon's runtime gives its own) makes one per sampled call.
public final class ServiceClient: Sendable {
    /// The loop the connections live on.
    public let loop: EventLoop
    /// Where callees' sockets are, and the endpoints the environment names (`VERTICALS_ENDPOINT_<NAME>`).
    public let sockets: SocketDirectory
    /// The timeout of a call that gives none and serves no request.
    public let defaultTimeout: Duration
    /// `defaultTimeout` converted once: a call without a timeout adds it in integers.
    private let defaultTimeoutNanoseconds: Int64
    private let options: ConnectionOptions
    private let nextCorrelationID = Atomic<UInt64>(1)
    private let requestSize = FrameSizeHint()
    // Loop-confined state lives in `channels`, touched only on `loop` (see PeerChannel).
    private let channels: ChannelTable
    private let tracing: (any CallTracing)?

    /// What this client's builds were compiled against, asked about on each new connection; nil
    /// when it asks nothing (a tool that calls by name, like `svc-supervisor call`).
    public let contracts: CalleeContracts?
    /// Where an answer over ``offLoopAnswerBytes`` is decoded (nil: where it is awaited).
    public let offLoop: OffLoop?

    /// The largest answer body decoded where it is awaited (a handler's: the loop): 64 KiB.
    ///
    /// A callee's answer costs its caller's loop a decode proportional to its size, and a frame
    /// may be 4 MiB: so a bigger answer is decoded on the ``OffLoop`` threads, and the loop's cost
    /// per answer stays what 64 KiB costs (well under a millisecond in a release build). Every
    /// answer of the reference suite (a page of a list, a description) is smaller, so keeps the
    /// path without a thread hop; above it the hop costs little beside the decode it moves.
    public static let offLoopAnswerBytes = 64 * 1024

    /// A client whose connections run on `loop`; with `calleeCheck`, each new connection is
    /// checked before anything is sent on it, and a callee it refuses fails the calls
    /// `permissionDenied`, naming why. With `contracts`, each new connection to a callee they
    /// describe begins with `daemon.contractCheck`, and the operations it refuses fail at once
    /// (``CalleeContracts``). Its connections read whatever they have queued: `options`'
    /// `pausesReadingPastHighWater` is a server's guard, and a client's is turned off. With
    /// `tracing`, each call made in a trace sends its own span's traceparent. With `offLoop`, an
    /// answer over ``offLoopAnswerBytes`` is decoded there, not on the loop.
    public init(
        loop: EventLoop, sockets: SocketDirectory, defaultTimeout: Duration = .seconds(5),
        options: ConnectionOptions = ConnectionOptions(), logger: Logger = Logger(label: "client"),
        calleeCheck: CalleeCheck? = nil, contracts: CalleeContracts? = nil, tracing: (any CallTracing)? = nil,
        offLoop: OffLoop? = nil
    ) {
        self.contracts = contracts
        self.offLoop = offLoop
        self.tracing = tracing
        self.loop = loop
        self.sockets = sockets
        self.defaultTimeout = defaultTimeout
        self.defaultTimeoutNanoseconds = defaultTimeout.wholeNanoseconds
        // A client reads whatever it has queued: the answers it reads are what frees its calls.
        var options = options
        options.pausesReadingPastHighWater = false
        self.options = options
        self.channels = ChannelTable(
            loop: loop, sockets: sockets, options: options, logger: logger, calleeCheck: calleeCheck,
            contracts: contracts)
    }

    /// Calls `operation` on its vertical and returns its Output.
    ///
    /// `nonisolated(nonsending)`: it runs on the caller's executor (a handler's: the loop), so
    /// calling it costs no executor hop, each of which takes the task's status-record lock.
    nonisolated(nonsending) public func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, timeout: Duration? = nil
    ) async throws(ServiceError) -> Output {
        let message = try await send(
            service: operation.service, operation: operation.fullName, declaring: operation.declaredCodes,
            timeout: timeout
        ) { envelope in
            requestSize.build { capacity in Message.frame(envelope, body: input, capacity: capacity) }
        }
        if let offLoop, message.payload.count - message.bodyStart > Self.offLoopAnswerBytes {
            return try await Self.decodeOffLoop(message, of: operation, on: offLoop)
        }
        return try Self.decode(message, of: operation)
    }

    /// The Output in `message`'s body, or `protocolError` saying why it does not read.
    private static func decode<Input, Output>(_ message: Message, of operation: Operation<Input, Output>)
        throws(ServiceError) -> Output
    {
        do {
            return try message.decodeBody(as: Output.self)
        } catch {
            throw ServiceError(
                .protocolError,
                "\(operation.fullName) answered with a body that is not a valid \(Output.schema.name): \(error)")
        }
    }

    /// ``decode(_:of:)`` on `offLoop`'s threads; the caller resumes on its own executor. When they
    /// refuse the job (their queue is full), `resourceExhausted`: the answer is not decoded on the loop.
    nonisolated(nonsending) private static func decodeOffLoop<Input, Output>(
        _ message: Message, of operation: Operation<Input, Output>, on offLoop: OffLoop
    ) async throws(ServiceError) -> Output {
        try await offLoop.result(
            of: { () throws(ServiceError) in try decode(message, of: operation) },
            refused: ServiceError(
                .resourceExhausted,
                "\(operation.fullName) answered with \(message.payload.count) bytes, which were not decoded: "
                    + "the threads that decode answers that big are busy"))
    }

    /// Calls `operation` of `service` with an already-encoded body; returns the response's body.
    /// For tools (`svc-supervisor call`) that hold JSON rather than types; `traceparent` is sent
    /// as given (`call --trace` starts a sampled trace with it).
    nonisolated(nonsending) public func callRaw(
        service: String, operation: String, body: [UInt8], timeout: Duration? = nil, traceparent: String? = nil
    ) async throws(ServiceError) -> [UInt8] {
        try await send(service: service, operation: operation, timeout: timeout, traceparent: traceparent) { envelope in
            Message.frame(envelope, rawBody: body)
        }.body
    }

    /// Sends a protocol-level `ping` and returns the round-trip time.
    nonisolated(nonsending) public func ping(_ service: String, timeout: Duration? = nil) async throws(ServiceError)
        -> Duration
    {
        let start = MonotonicInstant.now
        _ = try await send(service: service, operation: "", kind: .ping, timeout: timeout) { envelope in
            Message.frame(envelope, rawBody: EmptyCollection())
        }
        return .now - start
    }

    /// Closes every connection; calls in flight fail with `unavailable`.
    public func close() {
        let channels = self.channels
        loop.execute { channels.closeAll() }
    }

    nonisolated(nonsending) func send(
        service: String, operation: String, declaring errors: ErrorCodeSet? = nil, kind: MessageKind = .request,
        timeout: Duration?,
        traceparent given: String? = nil, onEvent: (@Sendable (Message) -> Void)? = nil,
        frame: @Sendable (Envelope) -> [UInt8]
    ) async throws(ServiceError) -> Message {
        let now = MonotonicInstant.now // one clock read for the deadline, its check and its wire form
        let served = Serving.current
        // A stream has no deadline of its own unless given one (it may follow for ever): it sends
        // none, and its call waits "for ever" (a century) unless a served request's deadline is earlier.
        let unbounded = onEvent != nil && timeout == nil
        let own = Deadline(
            timeout.map { now + $0 }
                ?? (unbounded ? now + Self.noDeadline : now.advanced(byNanoseconds: defaultTimeoutNanoseconds)))
        let deadline = timeout == nil ? served?.deadline ?? own : Deadline.earliest(own, served?.deadline)!
        guard deadline.instant > now else {
            throw ServiceError(
                .deadlineExceeded, "the deadline passed before \(operation.isEmpty ? service : operation) was sent")
        }
        let id = nextCorrelationID.wrappingAdd(1, ordering: .relaxed).oldValue
        // The call's place in its trace: a client span when sampled, else the parent's ids passed on.
        var traceparent = given ?? served?.traceparent
        var span: (any CallSpan)?
        if given == nil, kind == .request, let tracing,
            let started = tracing.startCall(operation, service: service, origin: served, at: now)
        {
            (traceparent, span) = started
        }
        let envelope = Envelope(
            kind: kind, correlationID: id, operation: operation,
            deadlineMicroseconds: unbounded && served?.deadline == nil ? 0 : deadline.wireMicroseconds(at: now),
            traceparent: traceparent)
        let bytes = frame(envelope)
        let channels = self.channels
        let loop = self.loop
        // The standard library's executor-inheriting spelling (public, underscored, the one it
        // keeps for code from before `isolated` parameters): `withTaskCancellationHandler` takes an
        // `isolated` parameter, so it switches to it on entry and back after its operation, two
        // executor switches a call, each taking the task's status-record lock (~550 instructions).
        // This one runs where `send` runs, on the caller's executor, which is what
        // `nonisolated(nonsending)` asks for anyway; the handler and the record are the same.
        let result: Result<Message, ServiceError> = await _unsafeInheritExecutor_withTaskCancellationHandler {
            // Unsafe (unchecked) continuation: resumed exactly once, by `PendingCall.complete`.
            // `PeerChannel.send` either completes the call at once or files it in `pending`, and
            // every later completion (answer, deadline, cancel, close) first removes the call from
            // `pending` and completes only what it removed; the deadline every call has guarantees
            // that removal. A loop that stopped before the call reached it completes it here.
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Message, ServiceError>, Never>) in
                let pending = PendingCall(
                    id: id, service: service, operation: operation, deadline: deadline, continuation: continuation,
                    onEvent: onEvent, errors: errors)
                if loop.inEventLoop {
                    channels.channel(for: service).send(bytes, pending)
                } else if !loop.execute({ channels.channel(for: service).send(bytes, pending) }) {
                    pending.complete(.failure(ServiceError(.unavailable, "the client's event loop has stopped")))
                }
            }
        } onCancel: {
            loop.execute { channels.channel(for: service).cancel(id) }
        }
        span?.endCall(result, requestBytes: bytes.count)
        return try result.get()
    }
}

/// One call waiting for its answer. Completed exactly once, on the loop (see `send`).
struct PendingCall: Sendable {
    let id: UInt64
    let service: String
    let operation: String
    let deadline: Deadline
    let continuation: UnsafeContinuation<Result<Message, ServiceError>, Never>
    /// For a stream: called on the loop with each `event` frame before the final answer.
    var onEvent: (@Sendable (Message) -> Void)? = nil
    /// The codes the operation declares, to which a callee's error is held
    /// (``ServiceError/declared(_:by:)``); nil: not known (a call by name), passed on as it came.
    /// A word, not an array: an array is a reference retained and released on every call.
    var errors: ErrorCodeSet? = nil

    /// What the call is, for error messages.
    var description: String { operation.isEmpty ? "ping \(service)" : operation }

    /// `error`, the callee's answer to this call, as its caller gets it: held to the codes the
    /// operation declares, when they are known.
    func fromCallee(_ error: ServiceError) -> ServiceError {
        guard let errors else { return error }
        return error.declared(errors, by: operation)
    }

    /// Resumes the caller with `result`.
    func complete(_ result: consuming Result<Message, ServiceError>) {
        continuation.resume(returning: result)
    }
}

/// The client's per-callee channels. Loop-confined: created by the client and touched
/// only inside `loop.execute` or when `loop.inEventLoop` is true, which makes the
/// `@unchecked Sendable` sound.
final class ChannelTable: @unchecked Sendable {
    private let loop: EventLoop
    private let sockets: SocketDirectory
    private let options: ConnectionOptions
    private let logger: Logger
    // bounded: one channel per callee this process calls
    private var channels: [String: PeerChannel] = [:]
    private var lastChannel: PeerChannel?
    private lazy var timers = TimerQueue(loop: loop)
    /// The client's TLS files for TCP callees, shared by every channel (nil: none named).
    private lazy var tls: TLSReloader? = sockets.tls.map { TLSReloader(files: $0, role: .client) }

    /// What each new connection is checked for before it carries a call (nil: nothing).
    private let calleeCheck: CalleeCheck?
    /// What each new connection asks the callee about (nil: nothing).
    private let contracts: CalleeContracts?

    init(
        loop: EventLoop, sockets: SocketDirectory, options: ConnectionOptions, logger: Logger,
        calleeCheck: CalleeCheck? = nil, contracts: CalleeContracts? = nil
    ) {
        self.contracts = contracts
        self.loop = loop
        self.sockets = sockets
        self.options = options
        self.logger = logger
        self.calleeCheck = calleeCheck
    }

    func channel(for service: String) -> PeerChannel {
        loop.preconditionInEventLoop()
        // Most calls go to the callee of the call before: a string compare, not a hash.
        if let last = lastChannel, last.service == service { return last }
        if let channel = channels[service] {
            lastChannel = channel
            return channel
        }
        let channel = PeerChannel(
            service: service, endpoint: sockets.endpoint(for: service),
            problem: sockets.endpointProblems[SocketDirectory.endpointKey(for: service)], tls: tls, loop: loop,
            options: options, timers: timers, logger: logger, calleeCheck: calleeCheck, contracts: contracts)
        channels[service] = channel
        lastChannel = channel
        return channel
    }

    func closeAll() {
        for channel in channels.values { channel.close() }
        channels.removeAll()
        lastChannel = nil
        timers.close()
    }
}
