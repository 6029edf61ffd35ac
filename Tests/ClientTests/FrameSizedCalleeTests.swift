import Foundation
import Synchronization
import Testing
@testable import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A callee that answers with frames as big as the frame limit allows costs its caller's loop a
/// bounded amount per frame: an error is read no further than what is kept, and an answer over
/// ``ServiceClient/offLoopAnswerBytes`` is decoded off the loop while the loop serves other calls.
struct FrameSizedCalleeTests {
    /// The text of an answer just under the frame limit.
    static let bigText = String(repeating: "x", count: FrameDecoder.defaultMaxFrameSize - 1024)

    /// Answers `echo` with "big" by a frame-sized answer, any other `echo` with its text, and
    /// `fail` with a frame-sized error: a 3 MiB message of invalid UTF-8 and a million details.
    static func answer(_ request: Message) -> [UInt8] {
        if request.envelope.operation.hasSuffix(".fail") {
            var body = BodyWriter(capacity: FrameDecoder.defaultMaxFrameSize)
            body.write(1, ErrorCode.conflict)
            body.write(2, [UInt8](repeating: 0xFF, count: 3 << 20))
            let detail = ErrorDetail("k", "v")
            for _ in 0..<100_000 { body.write(3, detail) }
            return Message.frame(
                Envelope(kind: .error, correlationID: request.envelope.correlationID), rawBody: body.buffer.bytes)
        }
        let text = (try? request.decodeBody(as: TestEcho.EchoInput.self))?.text ?? ""
        let output = TestEcho.EchoOutput(text: text == "big" ? bigText : text, servedBy: 1)
        return ScriptedCallee.response(output, to: request)
    }

    /// An ``OffLoop`` that holds each job until ``release()``, then runs it on a thread of its own.
    final class HeldOffLoop: Sendable {
        private let jobs = Mutex<[@Sendable () -> Void]>([])
        private let released = Atomic<Bool>(false)

        var offLoop: OffLoop {
            OffLoop { [self] job in
                let run = jobs.withLock { jobs in
                    guard released.load(ordering: .relaxed) else {
                        jobs.append(job)
                        return false
                    }
                    return true
                }
                if run { Thread { job() }.start() }
                return true
            }
        }

        /// How many jobs wait.
        var held: Int { jobs.withLock { $0.count } }

        /// Runs the jobs held, and every later one at once.
        func release() {
            let held = jobs.withLock { jobs in
                released.store(true, ordering: .relaxed)
                defer { jobs.removeAll() }
                return jobs
            }
            for job in held { Thread { job() }.start() }
        }
    }

    @Test func call_whoseAnswerIsFrameSized_isDecodedOffTheLoop_whileTheLoopAnswersAnotherCall() async throws {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let callee = try ScriptedCallee(at: sockets.socketPath(for: "echo"), answer: Self.answer)
        defer { callee.stop() }
        let offLoop = HeldOffLoop()
        try await withClient("frame-sized-answer-test", sockets: sockets, offLoop: offLoop.offLoop) { client in
            let echo = TestEcho().echo
            async let big = client.call(echo, .init(text: "big"), timeout: .seconds(60))
            // The big answer arrived, and its decode waits off the loop...
            #expect(await eventuallyAsync(timeout: .seconds(60)) { offLoop.held == 1 })
            // ...while the loop answers a cheap call on the same connection.
            let small = try await client.call(echo, .init(text: "small"), timeout: .seconds(60))
            #expect(small.text == "small")
            #expect(offLoop.held == 1)
            offLoop.release()
            #expect(try await big.text.utf8.count == Self.bigText.utf8.count)
        }
    }

    @Test func call_answeredWithAFrameSizedError_keepsAFewKiBOfIt() async throws {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let callee = try ScriptedCallee(at: sockets.socketPath(for: "echo"), answer: Self.answer)
        defer { callee.stop() }
        try await withClient("frame-sized-error-test", sockets: sockets) { client in
            let fail = Operation<TestEcho.FailInput, Empty>("echo", "fail", summary: "", errors: [.conflict])
            let error = await #expect(throws: ServiceError.self) {
                try await client.call(fail, .init(code: .conflict, message: ""), timeout: .seconds(60))
            }
            #expect(error?.code == .conflict)
            #expect((error?.message.utf8.count ?? .max) <= ServiceError.calleeMessageMaxBytes)
            #expect(error?.details.count == ServiceError.calleeMaxDetails)
            // And the loop goes on serving.
            let small = try await client.call(TestEcho().echo, .init(text: "after"), timeout: .seconds(60))
            #expect(small.text == "after")
        }
    }
}
