import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// A streaming route without a socket (``Router/serveStreamInProcess(_:_:)``): what a vertical's
/// unit tests of a stream handler use.
@Suite struct StreamRouterTests {
    let echo = TestEcho()

    private func router() -> Router {
        var router = Router(service: "echo")
        router.onStream(echo.count) { input, _ in
            AsyncThrowingStream<TestEcho.CountEvent, any Error> { continuation in
                for index in 1...max(input.count, 1) { continuation.yield(.init(index: index)) }
                continuation.finish(throwing: input.failWith.map { ServiceError($0, "asked to fail") })
            }
        }
        return router
    }

    @Test func streamServedInProcess_returnsEveryEventInOrder() async throws {
        let events = try await router().serveStreamInProcess(echo.count, .init(count: 4))
        #expect(events.map(\.index) == [1, 2, 3, 4])
    }

    @Test func streamEndingWithAnError_throwsIt() async throws {
        let error = await #expect(throws: ServiceError.self) {
            _ = try await router().serveStreamInProcess(echo.count, .init(count: 2, failWith: .notFound))
        }
        #expect(error?.code == .notFound)
    }

    @Test func streamingOperation_isListedWithItsEvent() {
        let descriptor = router().operations.first { $0.name == "count" }
        #expect(descriptor?.event.map { $0.schema.name } == "test.CountEvent")
        #expect(descriptor?.isStream == true)
    }
}
