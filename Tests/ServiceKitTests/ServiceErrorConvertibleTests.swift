import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The Router answers a domain error with its own wire form (``ServiceErrorConvertible``), for
/// plain and streaming routes alike, so no vertical wraps its handlers to map errors.
@Suite struct ServiceErrorConvertibleTests {
    /// A domain error as a vertical writes one.
    enum ShelfError: ServiceErrorConvertible, Equatable {
        case empty(shelf: String)

        var serviceError: ServiceError {
            switch self {
            case .empty(let shelf):
                ServiceError(.notFound, "shelf \(shelf) is empty; restock it", details: [ErrorDetail("shelf", shelf)])
            }
        }
    }

    let echo = TestEcho()

    @Test func aRouteThrowingADomainError_answersItsWireForm() async {
        var router = Router(service: "echo")
        router.on(echo.echo) { _, _ in throw ShelfError.empty(shelf: "b2") }

        await #expect(throws: ShelfError.empty(shelf: "b2").serviceError) {
            try await router.serveInProcess(echo.echo, .init(text: "hi"))
        }
    }

    @Test func aStreamThrowingADomainError_endsWithItsWireForm() async {
        var router = Router(service: "echo")
        router.onStream(echo.count) { _, _ in
            AsyncThrowingStream<TestEcho.CountEvent, any Error> { $0.finish(throwing: ShelfError.empty(shelf: "c3")) }
        }

        await #expect(throws: ShelfError.empty(shelf: "c3").serviceError) {
            try await router.serveStreamInProcess(echo.count, .init(count: 1))
        }
    }

    @Test func anotherVerticalsServiceError_passesThroughUnchanged() async {
        let refusal = ServiceError(.unavailable, "ledger is not running", retryable: true)
        var router = Router(service: "echo")
        router.on(echo.echo) { _, _ in throw refusal }

        await #expect(throws: refusal) { try await router.serveInProcess(echo.echo, .init(text: "hi")) }
    }
}
