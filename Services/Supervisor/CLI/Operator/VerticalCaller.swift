import IOInterface
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// One typed call from the CLI to a vertical (`admin`, `login`, `logout`, `log-level`, `backup`):
/// its own loop and client for the call's lifetime, and the vertical's refusal turned into a
/// ``CLIError`` with the CLI's exit codes (1 refused, 69 unreachable).
enum VerticalCaller {
    /// Calls `operation` with `input` through the sockets `connection` names, on vertical
    /// `service` (default: the operation's own; a `daemon.*` built-in names the vertical to ask).
    static func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, service: String? = nil,
        connection: VerticalConnectionOptions
    ) async throws -> Output {
        let reply = try await callRaw(
            service: service ?? operation.service, operation: operation.fullName, body: input.encodedBody(),
            connection: connection)
        do {
            return try Output(decoding: reply)
        } catch {
            throw CLIError(status: 76, "\(operation.fullName) answered a body that is not a \(Output.schema.name): \(error)")
        }
    }

    /// Calls `operation` with a generic Input and answers its Output as pretty JSON (`call`, `open`).
    static func callJSON(
        _ operation: OperationDescriptor, _ input: MessageValue, connection: VerticalConnectionOptions
    ) async throws -> String {
        let reply = try await callRaw(
            service: operation.service, operation: operation.fullName, body: try input.encoded(as: operation.input.schema),
            connection: connection)
        let output = try MessageValue(decoding: reply, as: operation.output.schema)
        return try output.jsonText(as: operation.output.schema, pretty: true)
    }

    /// Calls `operation` (a full `service.operation` name) of `service` with an encoded body; returns the answer's body.
    static func callRaw(
        service: String, operation: String, body: [UInt8], connection: VerticalConnectionOptions
    ) async throws -> [UInt8] {
        let loop = try EventLoop(name: "svc-supervisor-call")
        let client = ServiceClient(loop: loop, sockets: connection.sockets)
        defer {
            client.close()
            loop.shutdown()
        }
        do {
            return try await client.callRaw(service: service, operation: operation, body: body, timeout: connection.deadline)
        } catch {
            let refusal = CLIError(refusal: error, of: operation)
            // A vertical that could not reach one of its own dependencies passes that error on,
            // naming the dependency: the hint is about that one, not the vertical that answered.
            let silent = error.detail("service") ?? service
            if error.code == .deadlineExceeded || error.code == .unavailable,
                let hint = await UnansweredCallHint.ask(about: silent, sockets: connection.sockets)
            {
                throw CLIError(status: refusal.status, refusal.description + "\n" + hint)
            }
            throw refusal
        }
    }
}

extension CLIError {
    /// The CLI's report of a vertical's typed refusal: exit 69 when it cannot be reached, 1 otherwise.
    init(refusal error: ServiceError, of operation: String) {
        let details = error.details.map { "  \($0.key): \($0.value)" }.joined(separator: "\n")
        self.init(
            status: error.code == .unavailable ? 69 : 1,
            "\(operation) failed: \(error.code): \(error.message)" + (details.isEmpty ? "" : "\n" + details))
    }
}

