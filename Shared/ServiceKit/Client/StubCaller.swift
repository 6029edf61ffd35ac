import IOInterface
import Synchronization

/// A ``ServiceCalling`` for unit tests: answers only the operations a test stubs, and
/// fails every other call with `unimplemented` naming the operation, so a use case that
/// calls a vertical its test did not declare fails loudly (swift-dependencies' lesson).
///
/// ```swift
/// let identity = StubCaller()
///     .on(Identity.authenticate) { _ in .fixture(userID: "u1") }
/// let world = World.test(caller: identity)
/// ```
public final class StubCaller: ServiceCalling {
    private typealias Handler = @Sendable ([UInt8]) async throws(ServiceError) -> [UInt8]
    private let handlers: Mutex<[String: Handler]> = Mutex([:])
    private let log: Mutex<[String]> = Mutex([])

    /// A caller with nothing stubbed.
    public init() {}

    /// Answers `operation` with `handler`; returns self for chaining.
    @discardableResult
    public func on<Input, Output>(
        _ operation: Operation<Input, Output>, _ handler: @escaping @Sendable (Input) async throws(ServiceError) -> Output
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
            throw ServiceError(.unimplemented, "the test did not stub \(operation.fullName)")
        }
        // Through the wire form, so a stub sees exactly what a real callee would.
        let bytes = try await handler(input.encodedBody())
        do { return try Output(decoding: bytes) } catch {
            throw ServiceError(.protocolError, "\(error)")
        }
    }
}
