import Synchronization
import Testing
import VerticalsClient
import VerticalsContract
@testable import VerticalsServiceKit
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A request's Input decoded off the loop (its body over ``Router/offLoopInputBytes``) is freed
/// off the loop too, once its handler returns and before the answer goes out: releasing a
/// frame-sized Input (tens of thousands of strings) costs what decoding it did, and a caller that
/// reads the daemon's heap once answered sees it as it stays. A smaller one is freed where it
/// was decoded.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct LargeInputFreedOffLoopTests {
    /// Notes the thread that frees it.
    final class Witness: Sendable {
        static let freedOn = Mutex<[String]>([])

        deinit {
            let thread = MultiLoopHostTests.threadName()
            Self.freedOn.withLock { $0.append(thread) }
        }
    }

    /// An Input holding a ``Witness``, made as it is decoded (never sent: it is not a field).
    struct WitnessedInput: WireMessage {
        var text: String
        var witness: Witness?

        static let schema = MessageSchema("test.WitnessedInput", [.required(1, "text", .string)])

        init(text: String) {
            self.text = text
        }

        func encode(to body: inout BodyWriter) {
            body.write(1, text)
        }

        /// Equal by text: the witness is no part of the value.
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }

        init(from body: inout BodyReader) throws(WireDecodingError) {
            text = try body.requiredText()
            witness = Witness()
        }
    }

    static let sync = Operation<WitnessedInput, TestEcho.EchoOutput>("echo", "sync", summary: "")
    static let async = Operation<WitnessedInput, TestEcho.EchoOutput>("echo", "async", summary: "")

    @Test(arguments: [sync, async]) func largeInput_isFreedOffTheLoop_afterItsHandler(
        _ operation: Operation<WitnessedInput, TestEcho.EchoOutput>
    ) async throws {
        var router = Router(service: "echo")
        router.onSync(Self.sync) { input, _ in .init(text: "\(input.text.utf8.count)", servedBy: 0) }
        router.on(Self.async) { input, _ in .init(text: "\(input.text.utf8.count)", servedBy: 0) }
        let served = try await HostedRouter(router, loopName: "freeing-host")
        Witness.freedOn.withLock { $0.removeAll() }
        let large = String(repeating: "x", count: Router.offLoopInputBytes + 1)
        let answer = try await served.client.call(operation, .init(text: large))
        #expect(answer.text == "\(large.utf8.count)")
        // Freed on a blocking-work thread, before the answer left.
        let freedBeforeAnswer = Witness.freedOn.withLock { $0 }
        #expect(freedBeforeAnswer.count == 1, "the large Input was not freed before its answer")
        #expect(freedBeforeAnswer != ["freeing-host"], "a large Input was freed on the loop")
        Witness.freedOn.withLock { $0.removeAll() }
        _ = try await served.client.call(operation, .init(text: "small"))
        #expect(await eventuallyAsync { Witness.freedOn.withLock { !$0.isEmpty } }, "the small Input was never freed")
        #expect(Witness.freedOn.withLock { $0 } == ["freeing-host"])
        await served.close()
    }

    static let refusing = Operation<WitnessedInput, TestEcho.EchoOutput>("echo", "refusing", summary: "")

    @Test func largeInput_whoseHandlerThrows_isFreedOffTheLoop_beforeTheError() async throws {
        var router = Router(service: "echo")
        router.on(Self.refusing) { input, _ in
            throw ServiceError(.invalidInput, "\(input.text.utf8.count) bytes are too many")
        }
        let served = try await HostedRouter(router, loopName: "refusing-host")
        Witness.freedOn.withLock { $0.removeAll() }
        let large = String(repeating: "x", count: Router.offLoopInputBytes + 1)
        let error = await #expect(throws: ServiceError.self) {
            try await served.client.call(Self.refusing, .init(text: large))
        }
        #expect(error?.code == .invalidInput)
        let freedBeforeError = Witness.freedOn.withLock { $0 }
        #expect(freedBeforeError.count == 1, "the large Input was not freed before the error")
        #expect(freedBeforeError != ["refusing-host"], "a large Input was freed on the loop")
        await served.close()
    }
}
