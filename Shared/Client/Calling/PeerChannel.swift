import Logging
import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// The client's connection to one callee: connects on first use, matches answers to
/// calls by correlation id, enforces each call's deadline, and reconnects on the next
/// call after the callee went away. Loop-confined (see ``ChannelTable``).
///
/// Where its connection is, and what each event leads to, is ``PeerChannelStateMachine``'s to
/// decide; the channel performs what it answers.
///
/// Nothing holds a weak reference to a channel or its connection (callbacks capture them
/// strongly; a connection drops its handlers once closed): a weak reference gives an object a
/// side table, and every retain of it then takes the runtime's slow path, on every call.
final class PeerChannel {
    typealias StateMachine = PeerChannelStateMachine<Connection>

    /// The correlation id of the contract check a new connection begins with: one no call takes
    /// (calls count up from 1).
    static let contractCheckID = UInt64.max
    /// The deadline the contract check is sent with.
    static let contractCheckTimeout: UInt64 = 10_000_000

    let service: String
    /// Where the callee listens: its socket in the folder, or the endpoint the environment names.
    let endpoint: SocketEndpoint
    /// Why the callee's named endpoint may not be used (see ``SocketDirectory/endpointProblems``).
    let problem: String?
    /// Mutual TLS for a TCP endpoint: the client's files, looked at again at each new connection.
    let tls: TLSReloader?
    private let loop: EventLoop
    private let options: ConnectionOptions
    private let timers: TimerQueue
    private let logger: Logger
    /// What a new connection is checked for before it carries a call (``CalleeCheck``).
    private let calleeCheck: CalleeCheck?
    /// What this build was compiled against, asked about on each new connection (nil: nothing).
    private let contracts: CalleeContracts?
    /// The operations the current connection's contract check refused, with their errors.
    // bounded: operations this build calls (CalleeContracts refuses no other)
    private var refused: [String: ServiceError] = [:]
    // `@exclusivity(unchecked)` on the three a call changes in place: a class's stored property
    // mutated through a method (`pending.insert`, `removeValue`, `deadlineCheck.watch`) is
    // checked at run time, three accesses and ~400 instructions a call. Sound because the channel
    // is loop-confined (above) and no access overlaps another: `PendingCalls`' methods call nothing
    // of ours, `DeadlineCheck.watch` only arms a ``TimerQueue`` entry (its action runs later, from
    // the loop's timer), completing a call resumes a continuation (which only enqueues the caller),
    // and a stream's `onEvent` is read out of `pending` before it is called; the machine's
    // functions touch nothing but the machine.
    @exclusivity(unchecked) private var machine = StateMachine()
    // The request bytes stay with each call until answered, so a connection the callee closes
    // unread (``ServiceError/unreadDetail``) can be replayed on a new one.
    @exclusivity(unchecked) private var pending = PendingCalls()
    /// One timer entry for the deadlines of every call in `pending`.
    @exclusivity(unchecked) private var deadlineCheck = DeadlineCheck()
    /// The calls waiting for a connection to be ready, in the order they go out.
    private var unsent: [(id: UInt64, bytes: [UInt8])] = []

    init(
        service: String, endpoint: SocketEndpoint, problem: String? = nil, tls: TLSReloader? = nil, loop: EventLoop,
        options: ConnectionOptions, timers: TimerQueue, logger: Logger, calleeCheck: CalleeCheck? = nil,
        contracts: CalleeContracts? = nil
    ) {
        self.calleeCheck = calleeCheck
        self.contracts = contracts
        self.service = service
        self.endpoint = endpoint
        self.problem = problem
        self.tls = endpoint.transport == .tcp ? tls : nil
        self.loop = loop
        self.options = options
        self.timers = timers
        self.logger = logger
    }

    /// Sends a request frame for `call`, connecting first when needed.
    func send(_ bytes: [UInt8], _ call: PendingCall) {
        guard machine.takesCalls else {
            call.complete(.failure(ServiceError(.unavailable, "the client is closed")))
            return
        }
        if let problem {
            call.complete(
                .failure(
                    ServiceError(
                        .unavailable, "\(service) cannot be called: \(problem)",
                        details: [ErrorDetail("service", service)])))
            return
        }
        if !refused.isEmpty, let error = refused[call.operation] {
            call.complete(.failure(error))
            return
        }
        watchDeadline(call.deadline.instant)
        pending.insert((call, bytes))
        switch machine.callQueued() {
        case .write(let connection):
            connection.write(bytes)
        case .hold:
            unsent.append((call.id, bytes))
        case .connect:
            unsent.append((call.id, bytes))
            connect()
        }
    }

    /// Gives up on call `id`: answers it `cancelled` and tells the callee.
    func cancel(_ id: UInt64) {
        guard let entry = pending.removeValue(forKey: id) else { return }
        entry.call.complete(.failure(ServiceError(.cancelled, "\(entry.call.description) was cancelled by the caller")))
        sendCancel(id)
    }

    /// Closes the connection; calls in flight fail with `unavailable`.
    func close() {
        machine.closeRequested()?.close()
        failAll(ServiceError(.unavailable, "the client is closed"))
    }

    /// Opens a connection: the machine is connecting.
    private func connect() {
        guard let tls else {
            Connection.connect(to: endpoint, on: loop, options: options) { [self] result in connectFinished(result) }
            return
        }
        let context: TLSContext
        do {
            context = try tls.current().context
        } catch {
            guard case .failCalls = machine.connectFailed(backlogFull: false, callsWaiting: !unsent.isEmpty) else {
                return
            }
            failAll(
                ServiceError(
                    .unavailable, "\(service) cannot be called over TLS: \(error)",
                    details: [ErrorDetail("service", service)]))
            return
        }
        // The callee's certificate must name it: verticals://<service>. With a callee check, the name is
        // checked once the handshake is done (``connected(_:)``), so that a wrong one is refused as
        // `permissionDenied`, naming it, rather than reported as a callee that cannot be reached.
        let peerName = calleeCheck == nil ? service : nil
        Connection.connect(to: endpoint, on: loop, options: options, tls: context, peerName: peerName) {
            [self] result in
            connectFinished(result)
        }
    }

    private func connectFinished(_ result: Result<Connection, EventLoopError>) {
        let error: EventLoopError
        switch result {
        case .success(let connection):
            connected(connection)
            return
        case .failure(let failure):
            error = failure
        }
        switch machine.connectFailed(backlogFull: error.isTransient, callsWaiting: !unsent.isEmpty) {
        case .retry(let delay):
            // The callee's backlog is full: it is alive but slow to accept. Try again until the
            // calls waiting for this connection reach their own deadlines.
            _ = timers.schedule(at: .now + delay) { [self] in
                if machine.retryDue(callsWaiting: !unsent.isEmpty) { connect() }
            }
        case .failCalls where error.refusesCertificate:
            failAll(certificateRefused(error))
        case .failCalls:
            failAll(
                ServiceError(
                    .unavailable, "\(service) is not reachable at \(endpoint): \(error)",
                    details: [ErrorDetail("service", service)], retryable: true))
        case .nothing:
            break
        }
    }

    /// A certificate refused, by the callee or by this side: `permissionDenied`, and not worth a
    /// retry, which would present the same certificates again; the error says whose was refused.
    private func certificateRefused(_ error: EventLoopError) -> ServiceError {
        ServiceError(
            .permissionDenied,
            "\(service) at \(endpoint) and this vertical do not accept each other's certificates: \(error)",
            details: [ErrorDetail("service", service)])
    }

    private func connected(_ connection: Connection) {
        // Not one byte to a listener that is not the callee meant.
        let refusal =
            calleeCheck.flatMap {
                Self.wrongName(connection.calleeListener, service: service)
                    ?? $0.refusal(service, connection.calleeListener)
            }
        let expected = refusal == nil ? contracts?.expected(for: service) : nil
        let ask: CalleeContracts.Expected?
        switch machine.connected(connection, trusted: refusal == nil, expected: expected) {
        case .close:
            connection.close()
            return
        case .refuseListener:
            connection.close()
            failAll(
                ServiceError(
                    .permissionDenied, "\(service) at \(endpoint) is not to be trusted: \(refusal ?? "")",
                    details: [ErrorDetail("service", service)]))
            return
        case .askContract(let expected):
            ask = expected
        case .sendWaiting:
            ask = nil
        }
        refused = [:]
        // Strong captures: a connection drops its handlers once closed, which ends the cycles.
        connection.onFrame = { [self] payload in received(payload, on: connection) }
        connection.onFrameError = { [self] error in
            broken(connection, ServiceError(.protocolError, "\(service) broke framing: \(error)"))
        }
        connection.onClose = { [self] error in
            if self.machine.connectionClosed(connection) {
                self.refused = [:]
            }
            // TLS 1.3: the callee checks this side's certificate after the client's handshake is
            // done, so its refusal arrives as the first thing read.
            if let error, error.refusesCertificate {
                self.failAll(self.certificateRefused(error))
                return
            }
            let reason = error.map { ": \($0)" } ?? ""
            self.failAll(
                ServiceError(
                    .unavailable, "the connection to \(self.service) closed before it answered\(reason)",
                    details: [ErrorDetail("service", self.service)], retryable: true))
        }
        connection.startReading()
        if let expected = ask {
            connection.write(
                Message.frame(
                    Envelope(
                        kind: .request, correlationID: Self.contractCheckID, operation: Daemon.contractCheck.fullName,
                        deadlineMicroseconds: Self.contractCheckTimeout),
                    body: Daemon.ContractCheckInput(operations: expected.operations, fingerprint: expected.fingerprint))
            )
            return
        }
        sendUnsent(on: connection)
    }

    /// Sends the calls that waited for the connection, but those its contract check refused.
    private func sendUnsent(on connection: Connection) {
        let queued = unsent
        unsent.removeAll()
        for (id, bytes) in queued where pending.contains(id) {
            if !refused.isEmpty, let operation = pending[id]?.call.operation, let error = refused[operation] {
                _ = pending.removeValue(forKey: id)?.call.complete(.failure(error))
                continue
            }
            connection.write(bytes)
        }
    }

    /// The callee's answer to the contract check `connection` began with: judged (a description
    /// that differs, off the loop: ``CalleeContracts/judge(_:service:expected:later:)``), logged
    /// once, kept for `daemon.health`; then the calls that waited go out, but those it refuses.
    private func contractChecked(_ message: Message, on connection: Connection, expected: CalleeContracts.Expected) {
        guard let contracts else { return }
        let found: CalleeContracts.Found
        switch message.envelope.kind {
        case .response:
            let channel = OnItsLoop(self)
            let loop = self.loop
            let judged = contracts.judge(answerIn: message, service: service, expected: expected) { found in
                loop.execute { channel.value.checkFinished(found, on: connection) }
            }
            guard let judged else { return } // judged off the loop; the finding comes back to it
            found = judged
        default:
            // The callee's text, read no further than kept (``ServiceError/init(fromCallee:)``), cut again as a finding.
            let error =
                (try? ServiceError(fromCallee: message)).map { PeerText($0.description).text }
                ?? "an undecodable error"
            found = contracts.unchecked(
                service, expected: expected, why: "it does not answer daemon.contractCheck (an older build?): \(error)")
        }
        checkFinished(found, on: connection)
    }

    /// The contract check of `connection` came to `found`: logged, and the calls that waited go
    /// out, but those it refuses. Nothing when the channel has moved on (that connection closed).
    private func checkFinished(_ found: CalleeContracts.Found, on connection: Connection) {
        guard machine.checkJudged(on: connection) else { return }
        switch found.state {
        case .incompatible:
            logger.error(
                "\(service) serves a contract this build does not speak; refusing \(found.refused.keys.sorted().joined(separator: ", ")): \(found.findings.map(\.text).joined(separator: "; "))"
            )
        case .compatible where !found.findings.isEmpty:
            logger.warning(
                "\(service)'s contract differs from this build's: \(found.findings.map(\.text).joined(separator: "; "))"
            )
        case .unchecked:
            logger.info("calls to \(service) go unchecked: \(found.findings.map(\.text).joined(separator: "; "))")
        case .compatible:
            break
        }
        refused = found.refused
        sendUnsent(on: connection)
    }

    /// Why a TLS peer is not `service`, when its verified certificate names another vertical.
    private static func wrongName(_ listener: CalleeCheck.Listener, service: String) -> String? {
        guard case .certificate(let name) = listener, name != service else { return nil }
        return "its certificate names \(name.map { "verticals://\($0)" } ?? "no vertical"), not verticals://\(service)"
    }

    private func received(_ payload: [UInt8], on connection: Connection) {
        let message: Message
        do {
            message = try Message(payload: payload)
        } catch {
            broken(connection, ServiceError(.protocolError, "\(service) sent an invalid envelope: \(error)"))
            return
        }
        let id = message.envelope.correlationID
        if id == Self.contractCheckID, let expected = machine.checkAnswered(on: connection) {
            contractChecked(message, on: connection, expected: expected)
            return
        }
        switch message.envelope.kind {
        case .response, .pong:
            complete(id, .success(message))
        case .error:
            let error: ServiceError
            do {
                // Read no further than what is kept or served on (``ServiceError/init(fromCallee:)``).
                error = try ServiceError(fromCallee: message)
            } catch {
                complete(id, .failure(ServiceError(.protocolError, "\(service) sent an undecodable error: \(error)")))
                return
            }
            if id == 0, error.details.contains(ServiceError.unreadDetail) {
                // The callee closes the connection having served nothing still pending: send it all again.
                resendOnANewConnection(leaving: connection)
            } else if id == 0 {
                // About the connection itself: the callee is closing it, so stop using it now.
                let error = error.aboutTheConnection(of: service)
                logger.warning("\(service) reported a connection error: \(error)")
                failAll(error)
                connection.close()
            } else {
                // Held to the codes the call's operation declares (``ServiceError/declared(_:by:)``).
                completeFromCallee(id, error)
            }
        case .event:
            // One item of a stream: to the call that asked for it; else (cancelled, or a plain
            // call the callee streams to) dropped, as a late answer is.
            let onEvent = pending[id]?.call.onEvent
            onEvent?(message)
        case .request, .cancel, .ping:
            broken(
                connection,
                ServiceError(.protocolError, "\(service) sent a \(message.envelope.kind) frame to its client"))
        }
    }

    /// The callee closed `connection` having read none of the calls pending on it: they go again
    /// on a new connection, within the machine's handover budget.
    private func resendOnANewConnection(leaving connection: Connection) {
        let action = machine.handedOver(connection, callsPending: !pending.isEmpty)
        connection.onClose = nil
        connection.onFrame = nil
        connection.close()
        switch action {
        case .resend:
            unsent = pending.entries.map { ($0.call.id, $0.bytes) }.sorted { $0.id < $1.id }
            connect()
        case .giveUp:
            let error = ServiceError(
                .unavailable,
                "\(service) closed \(machine.handoversInARow + 1) or more connections in a row with every call "
                    + "unread; calls to it are not sent again on a new connection until it answers one",
                details: [ErrorDetail("service", service)], retryable: true)
            logger.warning("\(error)")
            failAll(error)
        case .close:
            break
        }
    }

    private func complete(_ id: UInt64, _ result: consuming Result<Message, ServiceError>) {
        // An answer for an id no longer pending arrived after its deadline or cancel: drop it.
        guard let entry = pending.removeValue(forKey: id) else { return }
        machine.callAnswered()
        entry.call.complete(result)
    }

    /// Completes call `id` with `error`, the callee's answer to it, held to what its operation declares.
    private func completeFromCallee(_ id: UInt64, _ error: ServiceError) {
        guard let entry = pending.removeValue(forKey: id) else { return }
        machine.callAnswered()
        entry.call.complete(.failure(entry.call.fromCallee(error)))
    }

    private func checkDeadlines() {
        deadlineCheck.fired()
        let (due, next) = DeadlineCheck.sweep(pending.entries.lazy.map { ($0.call.id, $0.call.deadline.instant) })
        for id in due { deadlinePassed(id) }
        if let next { watchDeadline(next) }
    }

    private func watchDeadline(_ deadline: MonotonicInstant) {
        // Strong capture: the entry fires, or goes with the table's timer queue when the client closes.
        deadlineCheck.watch(deadline, on: timers) { [self] in checkDeadlines() }
    }

    private func deadlinePassed(_ id: UInt64) {
        guard let entry = pending.removeValue(forKey: id) else { return }
        entry.call.complete(
            .failure(
                ServiceError(
                    .deadlineExceeded, "\(entry.call.description) got no answer before its deadline",
                    details: [ErrorDetail("service", service)])))
        sendCancel(id)
    }

    private func sendCancel(_ id: UInt64) {
        unsent.removeAll { $0.id == id }
        if let connection = machine.connectedLink, !connection.isClosed {
            connection.write(Message.frame(Envelope(kind: .cancel, correlationID: id), rawBody: EmptyCollection()))
        }
    }

    private func broken(_ connection: Connection?, _ error: ServiceError) {
        logger.warning("closing the connection to \(service): \(error)")
        failAll(error)
        connection?.close()
    }

    private func failAll(_ error: ServiceError) {
        let entries = pending.removeAll()
        unsent.removeAll()
        for entry in entries {
            entry.call.complete(.failure(error))
        }
    }
}

/// A channel carried through a thread that only hands it back to its loop (``EventLoop/execute(_:)``).
///
/// `@unchecked Sendable`, and sound: the one closure that holds it off the loop reads
/// ``value`` only inside `execute`'s work, which runs on the loop thread, the only thread that
/// touches a channel; the thread that judged never reads it.
private struct OnItsLoop: @unchecked Sendable {
    let value: PeerChannel

    init(_ value: PeerChannel) {
        self.value = value
    }
}
