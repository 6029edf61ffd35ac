import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
@testable import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// Handlers that answer without suspending (`Router.onSync`): served straight in the read
/// callback with no task, they must answer, fail, count and set the request's context exactly as
/// an `on` handler does, and keep their place beside async handlers in one read.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct SyncRouteTests {
    static let echo = TestEcho()

    /// A host whose `echo` answers at once (with the context it saw as `RequestContext.current`),
    /// `fail` throws the code asked for, `throwUntyped` throws an error no caller may see, and
    /// `relay` is an async handler that suspends once.
    static func served() async throws -> HostedRouter {
        try await HostedRouter(router(), loopName: "sync-host")
    }

    static func router() -> Router {
        var router = Router(service: "echo")
        router.onSync(echo.echo) { input, context in
            // What an onSync handler must never do: wait, here for 30 ms, holding the loop.
            if input.text == "hold" { usleep(30_000) }
            let current = RequestContext.current
            let seen = current === context ? "current" : "no current"
            return .init(text: "\(input.text) on \(MultiLoopHostTests.threadName()), \(seen)", servedBy: 0)
        }
        router.onSync(echo.fail) { input, _ in throw ServiceError(input.code, input.message) }
        router.onSync(echo.throwUntyped) { _, _ in
            struct Untyped: Error {}
            throw Untyped()
        }
        router.on(echo.relay) { input, _ in
            await Task.yield()
            return .init(echoed: .init(text: "async \(input.text)", servedBy: 0), remainingMicroseconds: 0)
        }
        return router
    }

    @Test func answersOnTheLoopThread_withItsContextCurrent() async throws {
        let served = try await Self.served()
        let output = try await served.client.call(Self.echo.echo, .init(text: "hi"))
        #expect(output.text == "hi on sync-host, current")
        await served.close()
    }

    @Test func failures_areTyped_andAnUntypedOneIsInternal() async throws {
        let served = try await Self.served()
        await #expect(throws: ServiceError.self) {
            try await served.client.call(Self.echo.fail, .init(code: .notFound, message: "no such thing"))
        }
        do {
            _ = try await served.client.call(Self.echo.fail, .init(code: .conflict, message: "taken"))
            Issue.record("a thrown conflict answered")
        } catch {
            #expect(error.code == .conflict)
            #expect(error.message == "taken")
        }
        do {
            _ = try await served.client.call(Self.echo.throwUntyped, Empty())
            Issue.record("an untyped error answered")
        } catch {
            #expect(error.code == .internal)
        }
        // Still serving after each.
        #expect(try await served.client.call(Self.echo.echo, .init(text: "after")).text.hasPrefix("after"))
        await served.close()
    }

    @Test func requestsAndErrors_areCounted() async throws {
        let served = try await Self.served()
        for index in 0..<3 { _ = try await served.client.call(Self.echo.echo, .init(text: "\(index)")) }
        _ = try? await served.client.call(Self.echo.fail, .init(code: .notFound, message: "x"))
        let body = try await served.client.callRaw(service: "echo", operation: Daemon.metrics.fullName, body: [])
        let metrics = try Daemon.Metrics(decoding: body)
        let lines = metrics.exposition.split(separator: "\n").map(String.init)
        #expect(lines.contains("verticals_requests_total{operation=\"echo.echo\"} 3"))
        #expect(lines.contains("verticals_request_duration_seconds_count{operation=\"echo.echo\"} 3"))
        #expect(lines.contains("verticals_request_errors_total{operation=\"echo.fail\",code=\"notFound\"} 1"))
        await served.close()
    }

    /// A handler answered at once that held the loop past the host's limit is counted (and
    /// warned about); under a limit it did not reach, it is not.
    @Test func aHandlerThatHoldsTheLoop_isCountedPastTheLimit_only() async throws {
        let strict = try await HostedRouter(Self.router(), loopName: "sync-strict") {
            $0.syncHandlerWarning = .milliseconds(5)
        }
        _ = try await strict.client.call(Self.echo.echo, .init(text: "hold"))
        _ = try await strict.client.call(Self.echo.echo, .init(text: "hold"))
        #expect(try await Self.heldLoop(strict) >= 2, "two 30 ms holds past a 5 ms limit")
        await strict.close()

        let lenient = try await HostedRouter(Self.router(), loopName: "sync-lenient") {
            $0.syncHandlerWarning = .seconds(60)
        }
        _ = try await lenient.client.call(Self.echo.echo, .init(text: "hold"))
        #expect(try await Self.heldLoop(lenient) == 0, "30 ms is within a 60 s limit")
        await lenient.close()
    }

    @Test func theLimit_isReadFromVERTICALS_SYNC_WARN_MS_andABadValueKeepsTheDefault() {
        let set = HostConfiguration.from(environment: ["VERTICALS_SYNC_WARN_MS": "250"], name: "echo", pid: 1)
        #expect(set.syncHandlerWarning == .milliseconds(250))
        for bad in ["0", "-3", "ten", ""] {
            let kept = HostConfiguration.from(environment: ["VERTICALS_SYNC_WARN_MS": bad], name: "echo", pid: 1)
            #expect(kept.syncHandlerWarning == .milliseconds(10), "\(bad)")
        }
    }

    /// `verticals_sync_handler_held_loop_total` of `echo.echo` in the host's metrics (0 when absent).
    static func heldLoop(_ served: HostedRouter) async throws -> Int {
        let body = try await served.client.callRaw(service: "echo", operation: Daemon.metrics.fullName, body: [])
        let prefix = "verticals_sync_handler_held_loop_total{operation=\"echo.echo\"} "
        let line = try Daemon.Metrics(decoding: body).exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    /// One read holding sync and async requests: each gets its own answer, under its own id.
    @Test func oneReadMixingSyncAndAsyncRequests_answersEachUnderItsId() async throws {
        let served = try await Self.served()
        let raw = try RawClient(path: "\(served.directory.path)/echo.sock", receiveTimeout: .seconds(30))
        var bytes: [UInt8] = []
        for id in 1...40 {
            let envelope: Envelope
            if id % 3 == 0 {
                envelope = Envelope(kind: .request, correlationID: UInt64(id), operation: Self.echo.relay.fullName)
                bytes += Message.frame(envelope, body: TestEcho.RelayInput(target: "echo", text: "\(id)"))
            } else {
                envelope = Envelope(kind: .request, correlationID: UInt64(id), operation: Self.echo.echo.fullName)
                bytes += Message.frame(envelope, body: TestEcho.EchoInput(text: "\(id)"))
            }
        }
        try raw.send(bytes)
        let responses = raw.receiveResponses(40)
        #expect(responses.count == 40, "expected 40 answers, got \(responses.count)")
        var answered: [UInt64: String] = [:]
        for message in responses {
            let id = message.envelope.correlationID
            answered[id] =
                id % 3 == 0
                ? try message.decodeBody(as: TestEcho.RelayOutput.self).echoed.text
                : try message.decodeBody(as: TestEcho.EchoOutput.self).text
        }
        for id in 1...40 {
            let expected = id % 3 == 0 ? "async \(id)" : "\(id) on sync-host, current"
            #expect(answered[UInt64(id)] == expected)
        }
        await served.close()
    }

    /// In-process, as for an `on` route, the context is the one passed (not set as current).
    @Test func inProcess_servesASyncRouteToo() async throws {
        let output = try await Self.router().serveInProcess(Self.echo.echo, .init(text: "here"))
        #expect(output.text.hasPrefix("here on "))
    }

    @Test func anInvalidBody_isInvalidInput() async throws {
        let served = try await Self.served()
        do {
            _ = try await served.client.callRaw(
                service: "echo", operation: Self.echo.echo.fullName, body: [0xFF, 0x01])
            Issue.record("a broken body answered")
        } catch {
            #expect(error.code == .invalidInput)
        }
        await served.close()
    }
}
