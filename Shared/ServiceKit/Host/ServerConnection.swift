import EventLoop
import IOInterface
import Logging
import Wire

/// One client's connection to a host: decodes its frames, runs its requests
/// concurrently and answers each, in whatever order they finish.
///
/// Loop-confined: created in the listener's accept callback and touched only on the
/// loop thread (handler tasks prefer the loop executor, and every mutation after an
/// `await` is preceded by `loop.preconditionInEventLoop()`), which is what makes the
/// `@unchecked Sendable` below sound: the compiler cannot see executor preference.
final class ServerConnection: @unchecked Sendable {
    private struct InFlight {
        let task: Task<Void, Never>
        let deadlineTimer: UInt64?
    }

    let connection: Connection
    private unowned let host: ServiceHost
    private var inFlight: [UInt64: InFlight] = [:]
    private var logger: Logger

    init(connection: Connection, host: ServiceHost) {
        self.connection = connection
        self.host = host
        var logger = host.logger
        logger[metadataKey: "connection"] = "\(connection.id)"
        self.logger = logger
    }

    /// How many requests are being served.
    var inFlightCount: Int { inFlight.count }

    func start() {
        connection.onFrame = { [weak self] payload in self?.received(payload) }
        connection.onFrameError = { [weak self] error in
            self?.protocolError(correlationID: 0, "\(error)")
        }
        connection.onClose = { [weak self] _ in self?.closed() }
        connection.startReading()
    }

    private func received(_ payload: [UInt8]) {
        let message: Message
        do {
            message = try Message(payload: payload)
        } catch {
            protocolError(correlationID: 0, "\(error)")
            return
        }
        let envelope = message.envelope
        switch envelope.kind {
        case .request:
            request(message)
        case .cancel:
            if let entry = inFlight.removeValue(forKey: envelope.correlationID) {
                entry.task.cancel()
                if let timer = entry.deadlineTimer { host.timers.cancel(timer) }
            }
        case .ping:
            connection.write(
                Message.frame(Envelope(kind: .pong, correlationID: envelope.correlationID), rawBody: EmptyCollection()))
        case .response, .error, .event, .pong:
            protocolError(
                correlationID: envelope.correlationID, "a client may not send a \(envelope.kind) frame to a server")
        }
    }

    private func request(_ message: Message) {
        let envelope = message.envelope
        let id = envelope.correlationID
        guard inFlight[id] == nil else {
            protocolError(correlationID: id, "correlation id \(id) is already in flight on this connection")
            return
        }
        if host.isDraining {
            answer(id, ServiceError(.unavailable, "\(host.configuration.name) is shutting down; retry", retryable: true))
            return
        }
        guard let route = host.router.route(for: envelope.operation) else {
            answer(id, ServiceError(
                .unimplemented, "\(host.configuration.name) has no operation \"\(envelope.operation)\"",
                details: [ErrorDetail("operation", envelope.operation)]))
            return
        }
        guard inFlight.count < host.configuration.maxInFlightPerConnection else {
            answer(id, ServiceError(
                .resourceExhausted,
                "more than \(host.configuration.maxInFlightPerConnection) requests in flight on one connection"))
            return
        }
        let deadline = Deadline(wireMicroseconds: envelope.deadlineMicroseconds)
        let context = RequestContext(
            operation: envelope.operation, correlationID: id, deadline: deadline,
            traceparent: envelope.traceparent, peer: connection.peerCredentials, logger: logger)
        let loop = host.loop
        let task = Task(executorPreference: loop) { [self] in
            let frame: [UInt8]
            do {
                frame = try await RequestContext.$current.withValue(context) {
                    try await route(message, context)
                }
            } catch let error as ServiceError {
                frame = Self.errorFrame(id, error)
            } catch is CancellationError {
                frame = Self.errorFrame(id, ServiceError(.cancelled, "the request was cancelled"))
            } catch {
                context.logger.error("handler failed: \(error)")
                frame = Self.errorFrame(id, ServiceError(.internal, "internal error while serving \(context.operation)"))
            }
            loop.preconditionInEventLoop()
            self.finished(id, frame)
        }
        var timer: UInt64?
        if let deadline {
            timer = host.timers.schedule(at: deadline.instant) { [weak self] in self?.deadlinePassed(id) }
        }
        inFlight[id] = InFlight(task: task, deadlineTimer: timer)
    }

    private func finished(_ id: UInt64, _ frame: [UInt8]) {
        // Absent when the deadline passed or the caller cancelled: that answer was already given.
        guard let entry = inFlight.removeValue(forKey: id) else { return }
        if let timer = entry.deadlineTimer { host.timers.cancel(timer) }
        if !connection.isClosed { connection.write(frame) }
        host.requestFinished()
    }

    private func deadlinePassed(_ id: UInt64) {
        guard let entry = inFlight.removeValue(forKey: id) else { return }
        entry.task.cancel()
        answer(id, ServiceError(.deadlineExceeded, "the caller's deadline passed before an answer was ready"))
        host.requestFinished()
    }

    private func answer(_ id: UInt64, _ error: ServiceError) {
        guard !connection.isClosed else { return }
        connection.write(Self.errorFrame(id, error))
    }

    private func protocolError(correlationID: UInt64, _ reason: String) {
        logger.notice("protocol error, closing connection: \(reason)")
        answer(correlationID, ServiceError(.protocolError, reason))
        connection.closeAfterFlush()
    }

    private func closed() {
        for entry in inFlight.values {
            entry.task.cancel()
            if let timer = entry.deadlineTimer { host.timers.cancel(timer) }
        }
        inFlight.removeAll()
        host.connectionClosed(self)
    }

    static func errorFrame(_ id: UInt64, _ error: ServiceError) -> [UInt8] {
        Message.frame(Envelope(kind: .error, correlationID: id), body: error)
    }
}
