import Glibc
import Testing
import VerticalsClient
import VerticalsContract
@testable import VerticalsServiceKit
import VerticalsTestSupport
import VerticalsWire

/// A request's body over ``Router/offLoopInputBytes`` is decoded on the blocking-work threads,
/// not on the loop, whether its handler is `on` or `onSync`; the handler still runs on the loop,
/// and a smaller body is decoded where it arrives.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct LargeInputOffLoopTests {
    /// An Input that notes the thread it was decoded on (never sent: it is not a field).
    struct NotedInput: WireMessage {
        var text: String
        var decodedOn = ""

        static let schema = MessageSchema("test.NotedInput", [.required(1, "text", .string)])

        init(text: String) {
            self.text = text
        }

        func encode(to body: inout BodyWriter) {
            body.write(1, text)
        }

        init(from body: inout BodyReader) throws(WireDecodingError) {
            text = try body.requiredText()
            decodedOn = MultiLoopHostTests.threadName()
        }
    }

    static let sync = Operation<NotedInput, TestEcho.EchoOutput>("echo", "sync", summary: "")
    static let async = Operation<NotedInput, TestEcho.EchoOutput>("echo", "async", summary: "")

    /// Answers "decoded on THREAD, answered on THREAD".
    static func served() async throws -> HostedRouter {
        var router = Router(service: "echo")
        router.onSync(sync) { input, _ in
            .init(text: "\(input.decodedOn) \(MultiLoopHostTests.threadName())", servedBy: 0)
        }
        router.on(async) { input, _ in
            .init(text: "\(input.decodedOn) \(MultiLoopHostTests.threadName())", servedBy: 0)
        }
        return try await HostedRouter(router, loopName: "input-host")
    }

    @Test(arguments: [sync, async]) func largeBody_isDecodedOffTheLoop_andAnsweredOnIt(
        _ operation: Operation<NotedInput, TestEcho.EchoOutput>
    ) async throws {
        let served = try await Self.served()
        let large = String(repeating: "x", count: Router.offLoopInputBytes + 1)
        let threads = try await served.client.call(operation, .init(text: large)).text.split(separator: " ")
        #expect(threads.count == 2)
        #expect(threads.first != "input-host", "a \(large.utf8.count)-byte body was decoded on the loop")
        #expect(threads.last == "input-host")
        let small = try await served.client.call(operation, .init(text: "small")).text.split(separator: " ")
        #expect(small == ["input-host", "input-host"])
        await served.close()
    }
}
