import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A callee that streams events as big as the frame limit allows costs its caller's loop what a
/// small event costs: each event is decoded by its reader, one over
/// ``ServiceClient/offLoopAnswerBytes`` off the loop, and the events stay in order.
struct FrameSizedEventTests {
    /// Answers `count` with a frame-sized event, then a small one, then the end of the stream; any
    /// other request as ``FrameSizedCalleeTests/answer(_:)`` does.
    static func answer(_ request: Message) -> [UInt8] {
        guard request.envelope.operation.hasSuffix(".count") else { return FrameSizedCalleeTests.answer(request) }
        let id = request.envelope.correlationID
        let big = TestEcho.CountEvent(index: 1, padding: FrameSizedCalleeTests.bigText)
        return Message.frame(Envelope(kind: .event, correlationID: id), body: big)
            + Message.frame(Envelope(kind: .event, correlationID: id), body: TestEcho.CountEvent(index: 2))
            + ScriptedCallee.response(Empty(), to: request)
    }

    @Test func frameSizedEvent_isDecodedOffTheLoop_inOrder_whileTheLoopAnswersAnotherCall() async throws {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let callee = try ScriptedCallee(at: sockets.socketPath(for: "echo"), answer: Self.answer)
        defer { callee.stop() }
        let loop = try EventLoop(name: "frame-sized-event-test")
        let offLoop = FrameSizedCalleeTests.HeldOffLoop()
        let client = ServiceClient(loop: loop, sockets: sockets, offLoop: offLoop.offLoop)
        defer {
            client.close()
            loop.shutdown()
        }
        let echo = TestEcho()
        let reader = Task {
            var indices: [Int] = []
            for try await event in client.stream(echo.count, .init(count: 2), timeout: .seconds(60)) {
                indices.append(event.index)
            }
            return indices
        }
        // The big event's decode waits off the loop...
        #expect(await eventuallyAsync(timeout: .seconds(60)) { offLoop.held == 1 })
        // ...while the loop answers a cheap call on the same connection.
        let small = try await client.call(echo.echo, .init(text: "small"), timeout: .seconds(60))
        #expect(small.text == "small")
        offLoop.release()
        #expect(try await reader.value == [1, 2])
    }
}
