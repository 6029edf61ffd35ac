import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A typed call's answer is decoded where its connection read it (``OutputSink``): from its own
/// frame only, whatever follows it in the read buffer, and a body that does not read fails the
/// call with the `protocolError` a caller always got, leaving the connection serving.
struct InPlaceAnswerTests {
    /// Answers `echo` with its text; "bad" with a body that is no `EchoOutput` (field tag 0);
    /// "followed" with the answer and, in the same write, an event and a second answer to the same
    /// call (both dropped: the call is answered by then).
    static func answer(_ request: Message) -> [UInt8] {
        let text = (try? request.decodeBody(as: TestEcho.EchoInput.self))?.text ?? ""
        let id = request.envelope.correlationID
        switch text {
        case "bad":
            return Message.frame(Envelope(kind: .response, correlationID: id), rawBody: [0x00, 0x01])
        case "followed":
            let output = TestEcho.EchoOutput(text: text, servedBy: 1)
            return ScriptedCallee.response(output, to: request)
                + Message.frame(Envelope(kind: .event, correlationID: id), body: output)
                + ScriptedCallee.response(TestEcho.EchoOutput(text: "again", servedBy: 2), to: request)
        default:
            return ScriptedCallee.response(TestEcho.EchoOutput(text: text, servedBy: 1), to: request)
        }
    }

    @Test func call_answeredWithABodyThatDoesNotRead_failsProtocolError_andTheConnectionServesOn() async throws {
        try await Self.withCallee("in-place-bad-answer-test") { client, callee in
            let echo = TestEcho().echo
            let error = await #expect(throws: ServiceError.self) {
                try await client.call(echo, .init(text: "bad"), timeout: .seconds(60))
            }
            #expect(error?.code == .protocolError)
            #expect(
                error?.message.hasPrefix(
                    "\(echo.fullName) answered with a body that is not a valid \(TestEcho.EchoOutput.schema.name): ")
                    == true, "\(String(describing: error))")
            let after = try await client.call(echo, .init(text: "after"), timeout: .seconds(60))
            #expect(after.text == "after")
            #expect(callee.connections.load(ordering: .relaxed) == 1)
        }
    }

    @Test func call_whoseAnswerIsFollowedByMoreFramesInOneRead_decodesItsOwnFrameOnly() async throws {
        try await Self.withCallee("in-place-followed-answer-test") { client, _ in
            let echo = TestEcho().echo
            let answer = try await client.call(echo, .init(text: "followed"), timeout: .seconds(60))
            #expect(answer == TestEcho.EchoOutput(text: "followed", servedBy: 1))
            let next = try await client.call(echo, .init(text: "next"), timeout: .seconds(60))
            #expect(next.text == "next")
        }
    }

    /// Runs `body` with a client on a loop named `name` and a ``ScriptedCallee`` answering as ``answer(_:)``.
    private static func withCallee(
        _ name: String, _ body: (ServiceClient, ScriptedCallee) async throws -> Void
    ) async throws {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let callee = try ScriptedCallee(at: sockets.socketPath(for: "echo"), answer: answer)
        defer { callee.stop() }
        try await withClient(name, sockets: sockets) { client in try await body(client, callee) }
    }
}
