import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// OTLP/HTTP export against a real receiver (scripts/otlp-receiver.py: Python's http.server
/// decoding `ExportTraceServiceRequest` with opentelemetry-proto's classes): one booking is one
/// trace whose spans, from three daemons, link parent to child; with the receiver gone, the
/// export queue stays bounded and the drop counter rises.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct OTLPExportTests {
    /// One span as the receiver wrote it.
    struct ReceivedSpan {
        let service, name: String
        let kind: Int // OTLP: 1 internal, 2 server, 3 client
        let trace, span, parent: String
        let status: Int // 1 ok, 2 error

        init?(_ line: Substring) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7, let kind = Int(fields[2]), let status = Int(fields[6]) else { return nil }
            (service, name, self.kind, trace, span, parent, self.status) =
                (fields[0], fields[1], kind, fields[3], fields[4], fields[5], status)
        }
    }

    /// The receiver, started on a free loopback port; its spans file; stopped at the end.
    final class Receiver {
        let process: DaemonProcess
        let spansFile: String
        let port: Int

        /// `stall`: a collector that accepts and never answers (the script's `--stall`).
        init(in directory: TemporaryDirectory, stall: Bool = false) throws {
            let file = "\(#filePath)"
            let root = file.firstRange(of: "/Tests/").map { String(file[..<$0.lowerBound]) } ?? "."
            let script = root + "/scripts/otlp-receiver.py"
            let portFile = directory.file("otlp.port")
            spansFile = directory.file("otlp.spans")
            let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
            process = try DaemonProcess(
                "/bin/sh",
                ["-c", #"exec python3 "$0" "$1" "$2" $3"#, script, portFile, spansFile, stall ? "--stall" : ""],
                environment: ["PATH": path], stderrPath: directory.file("otlp.stderr"))
            #expect(
                eventually(timeout: .seconds(30)) { readFile(portFile).flatMap { Int($0) } != nil },
                "the receiver never listened (is opentelemetry-proto installed? scripts/install-deps.sh --test): \(readFile(directory.file("otlp.stderr")) ?? "")"
            )
            port = readFile(portFile).flatMap { Int($0) } ?? 0
        }

        var spans: [ReceivedSpan] { (readFile(spansFile) ?? "").split(separator: "\n").compactMap(ReceivedSpan.init) }

        deinit { process.stop() }
    }

    @Test func booking_isOneTrace_acrossDaemons_andTheQueueDropsWhenTheReceiverIsGone() async throws {
        let suite = try SuiteLauncher()
        let receiver = try Receiver(in: suite.directory)
        let tracing = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)", "OTEL_BSP_SCHEDULE_DELAY": "50",
            "OTEL_BSP_MAX_QUEUE_SIZE": "16", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4",
            "VERTICALS_TRACE_SAMPLE_RATIO": "1",
        ]
        for name in SuiteLauncher.order { try suite.start(name, extra: tracing) }
        let client = suite.client
        _ = try await client.call(
            Identity.register, .init(email: "ada@example.org", password: "analytical-engine", displayName: "Ada"))
        let ada = try await client.call(Identity.login, .init(email: "ada@example.org", password: "analytical-engine"))
        let clinic = try #require(
            try await client.call(Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 1, service: .gp))
                .clinics.first?.clinic)
        let slot = try #require(await suite.openSlot(clinic: clinic.id, after: 1))
        _ = try await client.call(
            Appointments.book,
            .init(
                token: ada.token, clinicID: clinic.id, service: .gp, startsAt: slot, durationMinutes: 20,
                reason: "traced", requestID: "otlp-1"))

        // The booking's trace: its root is appointments' server span; every call is a client span,
        // and each callee's server span is that client span's child. The notification the outbox
        // delivers after the answer belongs to the booking's trace too (the delivery task keeps the
        // request's context), so the trace spans all four processes: appointments, identity,
        // clinics and notifications (which asks identity in turn). Waited for until every server
        // span's parent has arrived.
        var trace: [ReceivedSpan] = []
        let whole = eventually(timeout: .seconds(30)) {
            guard let root = receiver.spans.first(where: { $0.name == "appointments.book" && $0.kind == 2 }) else {
                return false
            }
            trace = receiver.spans.filter { $0.trace == root.trace }
            let ids = Set(trace.map(\.span))
            return Set(trace.filter { $0.kind == 2 }.map(\.service)) == [
                "appointments", "identity", "clinics", "notifications",
            ]
                && trace.allSatisfy { $0.parent.isEmpty || ids.contains($0.parent) }
                && trace.contains { $0.name == "appointments.commit" }
        }
        #expect(whole, "spans received: \(receiver.spans.map { "\($0.service) \($0.name) \($0.kind) \($0.trace)" })")
        let root = try #require(trace.first { $0.name == "appointments.book" && $0.kind == 2 })
        #expect(root.parent.isEmpty && root.status == 1)
        #expect(trace.filter { $0.parent.isEmpty }.count == 1, "one root")
        let byID = Dictionary(trace.map { ($0.span, $0) }) { first, _ in first }
        for served in trace where served.kind == 2 && served.span != root.span {
            let call = try #require(byID[served.parent], "\(served.service) \(served.name) has no parent in the trace")
            #expect(
                call.kind == 3 && call.name == served.name && call.service != served.service,
                "\(call.service) \(call.name)")
            #expect(
                byID[call.parent]?.kind == 2 || byID[call.parent]?.kind == 1, "a call's parent is a request or a span")
        }
        let commit = try #require(trace.first { $0.name == "appointments.commit" })
        #expect(commit.kind == 1 && commit.parent == root.span)

        // The receiver gone: spans are still made, the queue never holds more than its 16, and
        // what cannot be sent is dropped and counted.
        receiver.process.stop()
        for index in 0..<8 {
            _ = try? await client.call(Clinics.nearest, .init(latitude: 51.5, longitude: -0.12, limit: 1, service: .gp))
            _ = try? await client.call(Identity.login, .init(email: "ada@example.org", password: "wrong-\(index)"))
        }
        let (rose, _, queued) = await Self.exportCounters(of: "clinics", client) { dropped in dropped > 0 }
        #expect(rose, "no span dropped with the receiver gone")
        #expect(queued <= 16)
    }

    /// A collector that takes the connection and never answers: the sender waits on
    /// it, so spans pile up behind it. Every request is still answered, the queue never holds more
    /// than its bound, and what does not fit is dropped and counted.
    @Test func stalledCollector_neitherBlocksRequests_norGrowsTheQueue() async throws {
        let suite = try SuiteLauncher()
        let receiver = try Receiver(in: suite.directory, stall: true)
        try suite.start(
            "clinics",
            extra: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)", "OTEL_BSP_SCHEDULE_DELAY": "10",
                "OTEL_BSP_MAX_QUEUE_SIZE": "16", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4",
                "VERTICALS_TRACE_SAMPLE_RATIO": "1",
            ])
        let client = suite.client
        for _ in 0..<64 {
            let answer = try await client.call(
                Clinics.nearest, .init(latitude: 51.5, longitude: -0.12, limit: 1, service: .gp))
            #expect(answer.clinics.count <= 1)
        }
        let (rose, dropped, queued) = await Self.exportCounters(of: "clinics", client) { dropped in
            dropped >= 64 - 16 - 4
        }
        #expect(rose, "dropped \(dropped) of 64 spans behind a stalled collector (queue 16, one batch of 4 in flight)")
        #expect(queued <= 16, "the queue holds \(queued) spans, past its bound of 16")
        #expect(receiver.spans.isEmpty, "the stalled receiver answered nothing, so it wrote nothing")
    }

    /// `service`'s dropped-span counter and export queue, read from `daemon.metrics` until
    /// `enough(dropped)` holds (bounded): whether it did, and the last values read.
    static func exportCounters(
        of service: String, _ client: ServiceClient, until enough: @escaping (Double) -> Bool
    ) async -> (held: Bool, dropped: Double, queued: Double) {
        var dropped = 0.0
        var queued = 0.0
        let held = await eventuallyAsync(timeout: .seconds(30), every: .milliseconds(50)) {
            guard
                let body = try? await client.callRaw(
                    service: service, operation: Daemon.metrics.fullName, body: Empty().encodedBody()),
                let text = try? Daemon.Metrics(decoding: body).exposition
            else { return false }
            dropped = Self.sample(text, "verticals_trace_spans_dropped_total") ?? 0
            queued = Self.sample(text, "verticals_trace_export_queue") ?? 0
            return enough(dropped)
        }
        return (held, dropped, queued)
    }

    /// The value of the first sample of `name` in a Prometheus exposition.
    static func sample(_ text: String, _ name: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
            .flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }
}
