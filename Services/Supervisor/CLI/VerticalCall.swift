import EventLoop
import IOInterface
import ServiceKit

/// One typed call to a running vertical with a generic Input, answering the Output as
/// pretty JSON: the part `call` and `open` share.
struct VerticalCall {
    /// Where the sockets are and how long to wait.
    let connection: VerticalConnectionOptions

    /// Sends `input` to `operation` and answers the Output as JSON; a typed error from the
    /// vertical becomes a ``CLIError`` with status 1 (69 when the vertical cannot be reached).
    func send(_ operation: OperationDescriptor, _ input: MessageValue) async throws -> String {
        let body = try input.encoded(as: operation.input.schema)
        let loop = try EventLoop(name: "svc-supervisor-call")
        let client = ServiceClient(loop: loop, sockets: connection.sockets)
        defer {
            client.close()
            loop.shutdown()
        }
        let reply: [UInt8]
        do {
            reply = try await client.callRaw(
                service: operation.service, operation: operation.fullName, body: body,
                timeout: connection.deadline)
        } catch {
            // `error` is a ServiceError: callRaw throws nothing else.
            let details = error.details.map { "  \($0.key): \($0.value)" }.joined(separator: "\n")
            throw CLIError(
                status: error.code == .unavailable ? 69 : 1,
                "\(operation.fullName) failed: \(error.code): \(error.message)" + (details.isEmpty ? "" : "\n" + details))
        }
        let output = try MessageValue(decoding: reply, as: operation.output.schema)
        return try output.jsonText(as: operation.output.schema, pretty: true)
    }
}
