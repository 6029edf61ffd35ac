import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// One call from the CLI to a vertical: its own loop and client for the call's lifetime, and
/// the vertical's refusal turned into a ``CLIError`` with the CLI's exit codes (1 refused, 69
/// unreachable). Typed for the `daemon.*` built-ins every daemon serves (`log-level`, `backup`);
/// over learned schemas (``DescribedOperation``) for everything a vertical's contract declares.
package enum VerticalCaller {
    /// Calls the built-in `operation` with `input` on vertical `service` (default: the operation's own).
    package static func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, service: String? = nil,
        connection: VerticalConnectionOptions
    ) async throws -> Output {
        let reply = try await callRaw(
            service: service ?? operation.service, operation: operation.fullName, body: input.encodedBody(),
            connection: connection)
        do {
            return try Output(decoding: reply)
        } catch {
            throw CLIError(
                .badAnswer, status: 76,
                "\(operation.fullName) answered a body that is not a \(Output.schema.name): \(error)",
                cause: error)
        }
    }

    /// Calls `operation` (a full `service.operation` name) of `service` with an encoded body; returns the answer's body.
    package static func callRaw(
        service: String, operation: String, body: [UInt8], connection: VerticalConnectionOptions
    ) async throws -> [UInt8] {
        try await callRaw(
            service: service, operation: operation, body: body, sockets: connection.sockets,
            timeout: connection.deadline, label: operation)
    }

    /// Calls `operation` of `service` at `sockets`; a refusal names `label` (what the user asked for).
    package static func callRaw(
        service: String, operation: String, body: [UInt8], sockets: SocketDirectory, timeout: Duration, label: String
    ) async throws -> [UInt8] {
        do {
            return try await exchange(
                service: service, operation: operation, body: body, sockets: sockets, timeout: timeout)
        } catch let error as ServiceError {
            throw await refusal(error, service: service, label: label, sockets: sockets)
        }
    }

    /// The call itself: the answer's body, or the vertical's refusal as it came.
    package static func exchange(
        service: String, operation: String, body: [UInt8], sockets: SocketDirectory, timeout: Duration
    ) async throws -> [UInt8] {
        let loop = try EventLoop(name: "svc-supervisor-call")
        let client = ServiceClient(loop: loop, sockets: sockets, calleeCheck: calleeCheck)
        defer {
            client.close()
            loop.shutdown()
        }
        return try await client.callRaw(
            service: service, operation: operation, body: body, timeout: timeout, traceparent: traceparent)
    }

    /// The W3C traceparent the calls made now send (`call --trace` sets it; nil: none).
    @TaskLocal package static var traceparent: String?

    /// What the calls made now check of the vertical before sending it anything (a command that
    /// sends a secret sets it, ``TrustedCallee``; nil: nothing).
    @TaskLocal package static var calleeCheck: CalleeCheck?

    /// `error` as the CLI reports it, with a hint from the supervisor when the vertical did not answer.
    package static func refusal(_ error: ServiceError, service: String, label: String, sockets: SocketDirectory) async
        -> CLIError
    {
        let refusal = CLIError(refusal: error, of: label)
        // A vertical that could not reach one of its own dependencies passes that error on,
        // naming the dependency: the hint is about that one, not the vertical that answered.
        let silent = error.detail("service") ?? service
        if error.code == .deadlineExceeded || error.code == .unavailable, silent != Supervisor.name,
            let hint = await UnansweredCallHint.ask(about: silent, sockets: sockets)
        {
            return refusal.adding(lines: ["\(hint)"])
        }
        return refusal
    }
}

extension CLIError {
    /// The CLI's report of a vertical's typed refusal: `unreachable` (exit 69) when it cannot be
    /// reached, `refused` (exit 1) otherwise; the refusal's code is the detail `wireCode`, and the
    /// refusal itself the cause.
    package init(refusal error: ServiceError, of operation: String) {
        let details: [TerminalText] = error.details.map { "  \($0.key): \($0.value)" }
        let unreachable = error.code == .unavailable
        self.init(
            unreachable ? .unreachable : .refused, status: unreachable ? 69 : 1,
            TerminalText(lines: ["\(operation) failed: \(error.code): \(error.message)"] + details),
            details: [ErrorDetail("wireCode", error.code.wireName)], cause: error)
    }
}
