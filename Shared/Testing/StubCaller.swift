import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// A `ServiceCalling` for unit tests: answers only the operations a test stubs, and fails
/// every other call with `unimplemented` naming the operation and its input, so a use case that
/// calls a vertical its test did not declare fails loudly (swift-dependencies' lesson).
///
/// `StubCaller()` (``init(fileID:filePath:line:column:)``) also *records an issue* naming the
/// call, so the test fails even where a use case swallows the error (a best-effort call with a
/// fallback). It lives here, in the testing library, because only tests use it.
///
/// ```swift
/// let identity = StubCaller()
///     .on(Identity.authenticate) { _ in .fixture(userID: "u1") }
/// let world = World(parts: try .test(migrator: Migrations.all, caller: identity))
/// ```
public final class StubCaller: ServiceCalling {
    /// What happens besides the `unimplemented` error when an operation no test stubbed is called;
    /// it is given the call as `service.operation(input)`.
    public typealias UnexpectedCall = @Sendable (_ call: String) -> Void

    private typealias Handler = @Sendable ([UInt8]) async throws(ServiceError) -> [UInt8]
    private let handlers: Mutex<[String: Handler]> = Mutex([:])
    private let log: Mutex<[String]> = Mutex([])
    private let unexpected: UnexpectedCall

    /// A caller with nothing stubbed, calling `onUnexpectedCall` for each call it was not told.
    public init(onUnexpectedCall: @escaping UnexpectedCall) {
        unexpected = onUnexpectedCall
    }

    /// Answers `operation` with `handler`; returns self for chaining.
    @discardableResult
    public func on<Input, Output>(
        _ operation: Operation<Input, Output>,
        _ handler: @escaping @Sendable (Input) async throws(ServiceError) -> Output
    ) -> StubCaller {
        let erased: Handler = { (bytes: [UInt8]) async throws(ServiceError) -> [UInt8] in
            let input: Input
            do { input = try Input(decoding: bytes) } catch {
                throw ServiceError(.invalidInput, "\(error)")
            }
            return try await handler(input).encodedBody()
        }
        handlers.withLock { $0[operation.fullName] = erased }
        return self
    }

    /// The full names of the operations called so far, in order.
    public var calls: [String] { log.withLock { $0 } }

    public func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, timeout: Duration?
    ) async throws(ServiceError) -> Output {
        log.withLock { $0.append(operation.fullName) }
        guard let handler = handlers.withLock({ $0[operation.fullName] }) else {
            let call = "\(operation.fullName)(\(input))"
            unexpected(call)
            throw ServiceError(.unimplemented, "unexpected call \(call): the test did not stub \(operation.fullName)")
        }
        // Through the wire form, so a stub sees exactly what a real callee would.
        let bytes = try await handler(input.encodedBody())
        do { return try Output(decoding: bytes) } catch {
            throw ServiceError(.protocolError, "\(error)")
        }
    }
}
