import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// Streaming operations over a real socket, against `vt-testd`'s `echo.count`: events in order
/// then the end, an error ending a stream, the caller's cancel stopping the producer, and a
/// reader that does not read holding the producer back with the daemon's memory bounded.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct StreamProcessTests {
    let echo = TestEcho()

    @Test func stream_deliversEveryEventInOrder_thenEnds() async throws {
        let suite = try SuiteFixture.servingEcho()
        var indices: [Int] = []
        for try await event in suite.client.stream(echo.count, .init(count: 200, bytes: 100)) {
            indices.append(event.index)
            #expect(event.padding.utf8.count == 100)
        }
        #expect(indices == Array(1...200))
    }

    @Test func stream_endingWithAnError_givesItsEventsThenThrowsTheTypedError() async throws {
        let suite = try SuiteFixture.servingEcho()
        var indices: [Int] = []
        do {
            for try await event in suite.client.stream(echo.count, .init(count: 3, failWith: .conflict)) {
                indices.append(event.index)
            }
            Issue.record("the stream ended without its error")
        } catch {
            #expect(error.code == .conflict)
        }
        #expect(indices == [1, 2, 3])
    }

    @Test func streamPastItsDeadline_endsWithDeadlineExceeded() async throws {
        let suite = try SuiteFixture.servingEcho()
        var seen = 0
        do {
            for try await _ in suite.client.stream(
                echo.count, .init(count: 0, delayMilliseconds: 5), timeout: .milliseconds(300))
            {
                seen += 1
            }
            Issue.record("an endless stream with a deadline ended without an error")
        } catch {
            #expect(error.code == .deadlineExceeded)
        }
        #expect(seen > 0)
    }

    @Test func readerFallingPastItsBuffer_getsResourceExhausted_notUnboundedMemory() async throws {
        let suite = try SuiteFixture.servingEcho()
        let events = suite.client.stream(echo.count, .init(count: 1_000, bytes: 1_000), buffer: 8)
        try await expectFallsBehind(suite, events, readingAtMost: 1 + 8)
    }

    @Test func readerFallingPastItsBytes_getsResourceExhausted_beforeItsCount() async throws {
        let suite = try SuiteFixture.servingEcho()
        // 100 KB events against 1 MB: the bytes bound the reader long before 4,096 events.
        let events = suite.client.stream(echo.count, .init(count: 1_000, bytes: 100_000), bufferBytes: 1_000_000)
        try await expectFallsBehind(suite, events, readingAtMost: 1 + 10)
    }

    @Test func describe_marksTheStreamingOperationWithItsEventMessage() async throws {
        let suite = try SuiteFixture.servingEcho()
        let body = try await suite.client.callRaw(
            service: "echo", operation: Daemon.describe.fullName, body: [], timeout: .seconds(30))
        let description = try Daemon.Description(decoding: body)
        let count = try #require(description.operations.first { $0.name == "count" })
        #expect(count.event == "test.CountEvent")
        #expect(count.output == "wire.Empty")
        #expect(description.operations.first { $0.name == "echo" }?.event == nil)
        #expect(description.messages.contains { $0.name == "test.CountEvent" })
    }

    @Test func leavingTheLoop_sendsCancel_andTheProducerStops() async throws {
        let suite = try SuiteFixture.servingEcho()
        var seen = 0
        for try await _ in suite.client.stream(echo.count, .init(count: 0, delayMilliseconds: 2)) {
            seen += 1
            if seen == 5 { break }
        }
        #expect(seen == 5)
        // The endless stream no longer makes events.
        var sideEvents = 0
        let stopped = await eventuallyAsync { try await sideStreamRunsAlone(suite, counting: &sideEvents) }
        #expect(stopped, "the cancelled stream went on producing")
    }

    @Test func cancelFrame_onTheWire_endsTheStreamWithoutAnAnswer() async throws {
        let suite = try SuiteFixture.servingEcho()
        let raw = try RawClient(path: suite.socket())
        try raw.sendRequest(
            id: 9, operation: "echo.count", body: TestEcho.CountInput(count: 0, delayMilliseconds: 2).encodedBody())
        for _ in 0..<3 {
            guard case .message(let message) = raw.receive() else { throw RawSocketError("no event") }
            #expect(message.envelope.kind == .event)
            #expect(message.envelope.correlationID == 9)
        }
        try raw.send(Message.frame(Envelope(kind: .cancel, correlationID: 9), rawBody: []))
        try raw.send(Message.frame(Envelope(kind: .ping, correlationID: 10), rawBody: []))
        // Events already written may come before the pong; after it (the cancel was served first), nothing.
        while case .message(let message) = raw.receive(), message.envelope.kind != .pong {
            #expect(message.envelope.kind == .event)
        }
        for _ in 0..<3 {
            let before = try await produced(suite)
            for try await _ in suite.client.stream(echo.count, .init(count: 10, delayMilliseconds: 2)) {}
            #expect(try await produced(suite) - before == 10)
        }
        try raw.send(Message.frame(Envelope(kind: .ping, correlationID: 11), rawBody: []))
        guard case .message(let pong) = raw.receive() else { throw RawSocketError("no pong") }
        #expect(
            pong.envelope.kind == .pong, "after the cancel came \(pong.envelope.kind) \(pong.envelope.correlationID)")
    }

    @Test func readerThatDoesNotRead_holdsTheProducer_withMemoryBounded_untilItReads() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start()
        let eventBytes = 64 << 10
        let raw = try RawClient(path: suite.socket())
        try raw.sendRequest(
            id: 1, operation: "echo.count", body: TestEcho.CountInput(count: 0, bytes: eventBytes).encodedBody())
        // Held: the endless stream makes nothing while another runs start to end.
        var sideEvents = 0
        let held = await eventuallyAsync { try await sideStreamRunsAlone(suite, counting: &sideEvents) }
        #expect(held, "the producer of an unread stream was never held")
        // What it made fits the high-water mark (1 MiB), one event past it and the kernel's buffers.
        let made = try await produced(suite) - sideEvents
        #expect(made * eventBytes < 16 << 20, "an unread stream made \(made) events of 64 KiB")
        let resident = try #require(daemon.residentBytes())
        #expect(resident < 64 << 20, "vt-testd holds \(resident >> 20) MiB")
        // Reading lets it go on: 500 events (31 MiB) come through.
        for index in 1...500 {
            guard case .message(let message) = raw.receive() else { throw RawSocketError("event \(index) never came") }
            #expect(message.envelope.kind == .event)
        }
        #expect(try await produced(suite) >= 500)
    }

    @Test func drainingHost_endsAStreamWithARetryableUnavailable_insteadOfWaitingForIt() async throws {
        let suite = try SuiteFixture()
        // A drain that waited for the endless stream would last a minute: the test's limit would end it first.
        let daemon = try suite.start(extra: ["VERTICALS_DRAIN_SECONDS": "60"])
        var events = suite.client.stream(echo.count, .init(count: 0, delayMilliseconds: 5)).makeAsyncIterator()
        #expect(try await events.next()?.index == 1)
        daemon.signal(SIGTERM)
        do {
            while try await events.next() != nil {}
            Issue.record("the stream ended without an error")
        } catch {
            #expect(error.code == .unavailable && error.retryable)
            #expect(error.message.contains("shutting down"), "\(error.message)")
        }
        #expect(daemon.waitForExit(timeout: .seconds(30)) != nil && daemon.exited(with: 0))
    }

    /// Reads one event of `events`, waits until its callee stopped making them (it made them all,
    /// or was cancelled for a reader fallen behind), then reads on: the stream must fail with
    /// `resourceExhausted` having given at most `most` events.
    private func expectFallsBehind(
        _ suite: SuiteFixture, _ events: EventStream<TestEcho.CountEvent>, readingAtMost most: Int
    ) async throws {
        var events = events.makeAsyncIterator()
        #expect(try await events.next()?.index == 1)
        var sideEvents = 0
        #expect(await eventuallyAsync { try await sideStreamRunsAlone(suite, counting: &sideEvents) })
        var read = 1
        do {
            while try await events.next() != nil { read += 1 }
            Issue.record("all \(read) events fitted the stream's buffer")
        } catch {
            #expect(error.code == .resourceExhausted, "\(error)")
        }
        #expect(read <= most)
    }

    /// Whether a 20-event stream (2 ms apart, so at least 40 ms) runs start to end while no
    /// other stream of the daemon makes an event: the count grows by its 20 alone. Adds its
    /// events to `sideEvents`.
    private func sideStreamRunsAlone(_ suite: SuiteFixture, counting sideEvents: inout Int) async throws -> Bool {
        let before = try await produced(suite)
        for try await _ in suite.client.stream(echo.count, .init(count: 20, delayMilliseconds: 2)) { sideEvents += 1 }
        return try await produced(suite) - before == 20
    }

    private func produced(_ suite: SuiteFixture) async throws -> Int {
        try await suite.client.call(echo.produced, Empty(), timeout: .seconds(30)).events
    }
}
