import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsTesting
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Spans across processes: `vt-testd relay` calls `vt-testd echo` while serving,
/// and each daemon's ring (`daemon.traces`) shows the spans with their parent links.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct TracingProcessTests {
    /// What `service`'s `daemon.traces` answers to `input`.
    static func traces(_ suite: SuiteFixture, _ service: String, _ input: Daemon.TracesInput) async throws
        -> Daemon.Traces
    {
        let reply = try await suite.client.callRaw(
            service: service, operation: Daemon.traces.fullName, body: input.encodedBody())
        return try Daemon.Traces(decoding: reply)
    }

    /// The spans of `traceID` that `service` holds, once it holds at least `count` (asked again
    /// until then, bounded: a daemon keeps its server span just after answering).
    static func spans(
        _ suite: SuiteFixture, _ service: String, traceID: String, atLeast count: Int
    ) async throws -> [Daemon.SpanInfo] {
        var spans: [Daemon.SpanInfo] = []
        for _ in 0..<200 {
            spans = try await traces(suite, service, .init(traceID: traceID)).spans
            if spans.count >= count { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return spans
    }

    /// A sampled relay call given a traceparent: relay's server span is the caller's child,
    /// relay's client span its child, and echo's server span the client span's child; the trace
    /// id is the caller's throughout, and the RPC spans are named `service.operation`.
    @Test func sampledCall_spansAcrossTwoDaemons_linkParentToChild() async throws {
        let suite = try SuiteFixture(clientTimeout: .seconds(30))
        try suite.start("echo")
        try suite.start("relay")
        let root = TraceIdentity(
            traceHigh: 0x4bf9_2f35_77b3_4da6, traceLow: 0xa3ce_929d_0e0e_4736, spanID: 0x00f0_67aa_0ba9_02b7,
            sampled: true)
        _ = try await suite.client.callRaw(
            service: "relay", operation: "relay.relay",
            body: TestEcho.RelayInput(target: "echo", text: "traced").encodedBody(), traceparent: root.traceparent)

        let relay = try await Self.spans(suite, "relay", traceID: root.traceID, atLeast: 2)
        let echo = try await Self.spans(suite, "echo", traceID: root.traceID, atLeast: 1)
        let server = try #require(relay.first { $0.kind == "server" })
        let client = try #require(relay.first { $0.kind == "client" })
        let served = try #require(echo.first { $0.kind == "server" })
        #expect(server.name == "relay.relay" && server.parentSpanID == root.spanIDText && server.sampled)
        #expect(client.name == "echo.echo" && client.parentSpanID == server.spanID)
        #expect(served.name == "echo.echo" && served.parentSpanID == client.spanID && served.code == "ok")
        #expect(Set((relay + echo).map(\.traceID)) == [root.traceID])
        // The client span lies within the server span that made it.
        #expect(client.startMicroseconds >= server.startMicroseconds)
        #expect(client.durationMicroseconds <= server.durationMicroseconds)
    }

    /// At ratio 0 (the default) a call without a traceparent starts an unsampled trace: no client
    /// span, but each daemon's ring keeps its server span's summary, echo's parented to relay's
    /// (the traceparent passed on names the request's span), and `--slowest` finds them.
    @Test func unsampledCall_leavesSummariesInTheRings_linkedThroughTheTraceparent() async throws {
        let suite = try SuiteFixture(clientTimeout: .seconds(30))
        try suite.start("echo")
        try suite.start("relay")
        let relayContract = TestEcho(service: "relay")
        _ = try await suite.client.call(relayContract.relay, .init(target: "echo", text: "untraced"))

        let slowest = try await Self.traces(suite, "relay", .init(slowest: 5))
        let server = try #require(slowest.spans.first { $0.name == "relay.relay" })
        #expect(!server.sampled && server.parentSpanID.isEmpty, "a call without traceparent starts a trace here")
        let relay = try await Self.spans(suite, "relay", traceID: server.traceID, atLeast: 1)
        #expect(relay.allSatisfy { $0.kind == "server" }, "no client span in an unsampled trace: \(relay)")
        let echo = try await Self.spans(suite, "echo", traceID: server.traceID, atLeast: 1)
        #expect(echo.first?.parentSpanID == server.spanID)
    }

    /// A failed request's span is kept with its code, and a request with a broken traceparent
    /// starts a new trace rather than failing.
    @Test func failedRequest_keptWithItsCode() async throws {
        let suite = try SuiteFixture()
        try suite.start("echo")
        let echo = TestEcho()
        _ = try? await suite.client.call(echo.fail, .init(code: .notFound, message: "nope"))
        let slowest = try await Self.traces(suite, "echo", .init(slowest: 10))
        #expect(slowest.spans.contains { $0.name == "echo.fail" && $0.code == "notFound" }, "\(slowest.spans)")
        _ = try await suite.client.callRaw(
            service: "echo", operation: "echo.echo", body: TestEcho.EchoInput(text: "x").encodedBody(),
            traceparent: "00-zz-broken")
    }

    /// A request refused before it runs (here: an operation the daemon does not have) leaves its
    /// server span too, with its code, in the caller's trace.
    @Test func refusedRequest_leavesItsSpan() async throws {
        let suite = try SuiteFixture()
        try suite.start("echo")
        let root = TraceIdentity(traceHigh: 7, traceLow: 8, spanID: 9, sampled: false)
        let refused = await #expect(throws: ServiceError.self) {
            _ = try await suite.client.callRaw(
                service: "echo", operation: "echo.noSuchOperation", body: [], traceparent: root.traceparent)
        }
        #expect(refused?.code == .unimplemented)
        let spans = try await Self.spans(suite, "echo", traceID: root.traceID, atLeast: 1)
        let span = try #require(spans.first, "no span for the refused request")
        #expect(
            span.name == "echo.noSuchOperation" && span.code == "unimplemented" && span.parentSpanID == root.spanIDText)
    }

    /// With `VERTICALS_TRACING=off` the ring stays empty.
    @Test func tracingOff_keepsNothing() async throws {
        let suite = try SuiteFixture()
        try suite.start("echo", extra: ["VERTICALS_TRACING": "off"])
        _ = try await suite.client.call(TestEcho().echo, .init(text: "x"))
        let slowest = try await Self.traces(suite, "echo", .init(slowest: 10))
        #expect(slowest.spans.isEmpty)
    }

    /// At `debug` each request logs one line (operation, code, duration) carrying its trace and
    /// span ids; so does a line a handler logs while serving (the relay's client logs nothing, so
    /// the relay's own line is the check).
    @Test func debugLevel_logsOneLinePerRequest_withTraceAndSpanIDs() async throws {
        let suite = try SuiteFixture()
        let log = suite.directory.file("stderr.log")
        try suite.start("echo", extra: ["VERTICALS_LOG_LEVEL": "debug"], stderrPath: log)
        let root = TraceIdentity(traceHigh: 1, traceLow: 2, spanID: 3, sampled: false)
        _ = try await suite.client.callRaw(
            service: "echo", operation: "echo.echo", body: TestEcho.EchoInput(text: "logged").encodedBody(),
            traceparent: root.traceparent)
        #expect(eventually { readFile(log)?.contains("served echo.echo code=ok duration_us=") == true })
        let line =
            (readFile(log) ?? "").split(separator: "\n").first { $0.contains("served echo.echo") }.map(String.init)
            ?? ""
        #expect(line.contains("trace_id=\(root.traceID)") && line.contains("span_id="), "\(line)")
    }
}
