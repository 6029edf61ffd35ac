import VerticalsContract
import VerticalsWire

extension Router {
    /// Serves one call of `operation` in-process, through the same wire form a socket carries:
    /// `input` encoded as a request frame, the route run, the response frame decoded. For tests
    /// of a vertical's Endpoint (and of built-ins) without a socket; a refusal is thrown as the
    /// `ServiceError` a client would get.
    ///
    /// ```swift
    /// let account = try await Endpoint.routes(world: world).serveInProcess(Identity.register, input)
    /// ```
    public func serveInProcess<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input,
        context: RequestContext? = nil
    ) async throws -> Output {
        let request = Message.frame(
            Envelope(kind: .request, correlationID: 1, operation: operation.fullName), body: input)
        guard let handler = route(for: operation.fullName) else {
            throw ServiceError(.unimplemented, "\(operation.fullName) is not routed")
        }
        let message = try Message(payload: Array(request.dropFirst(FrameEncoder.headerSize)))
        let response = InProcessAnswer()
        try await handler(
            message, context ?? RequestContext(operation: operation.fullName, correlationID: 1),
            Answer(target: response, id: 1, serial: 1, atOnce: false))
        return try response.output(as: Output.self)
    }
}
