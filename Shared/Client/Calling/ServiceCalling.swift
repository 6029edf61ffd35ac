import VerticalsContract
import VerticalsWire

/// Something that calls other verticals' operations: ``ServiceClient`` in a daemon,
/// `StubCaller` (VerticalsTesting) in a unit test. A vertical's `World` holds one, so its use cases never
/// know whether the other end is a socket or a test.
public protocol ServiceCalling: Sendable {
    /// Calls `operation` and returns its Output, or throws the callee's typed error.
    ///
    /// `timeout` can only shorten the deadline of the request being served, if any.
    func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, timeout: Duration?
    ) async throws(ServiceError) -> Output
}

extension ServiceCalling {
    /// Calls `operation` with the default timeout (or the served request's deadline).
    public func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input
    ) async throws(ServiceError) -> Output {
        try await call(operation, input, timeout: nil)
    }
}

extension ServiceClient: ServiceCalling {}
