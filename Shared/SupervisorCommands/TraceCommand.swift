import ArgumentParser
import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor trace ID` and `trace --slowest N`: one trace gathered from the running
/// verticals' rings of recent spans (`daemon.traces`), printed as a waterfall; or the slowest
/// recent requests of the whole suite.
struct TraceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Print one trace as a waterfall, or the slowest recent requests, from the daemons' span rings.",
        discussion: """
            Examples:
              svc-supervisor call --trace orders place '{…}'   (prints the call's trace id and waterfall)
              svc-supervisor trace 4bf92f3577b34da6a3ce929d0e0e4736
              svc-supervisor trace --slowest 10
            Each running daemon keeps its recent spans in a ring (1024): a summary of every request it served,
            whatever the sampling (VERTICALS_TRACE_SAMPLE_RATIO), and the calls and spans of sampled traces.
            Without a supervisor, on a host whose verticals systemd runs (export systemd), it asks the verticals of
            the host's socket units (over TCP as the operator of VERTICALS_TLS_CERT, _KEY and _CA).
            Exit status: 0 on success, 1 when no daemon holds the trace, 64 for a bad id, 69 when no supervisor answers
            and no vertical runs under systemd.
            """)

    @Argument(help: "The trace id: 32 hex digits.")
    var traceID: String?

    @Option(name: .long, help: "List the N slowest recent requests instead.")
    var slowest: Int?

    @OptionGroup var runDirectory: RunDirectoryOption

    @OptionGroup var answer: DaemonAnswerTimeout

    func validate() throws {
        guard (traceID == nil) != (slowest == nil) else { throw ValidationError("give a trace id or --slowest N") }
        if let traceID, traceID.count != 32 || !traceID.allSatisfy(\.isHexDigit) {
            throw ValidationError("\"\(traceID)\" is not a trace id: 32 hex digits")
        }
        if let slowest, slowest < 1 { throw ValidationError("--slowest must be at least 1") }
    }

    func run() async throws {
        try await ControlClient.reporting {
            let services: [String]
            let sockets: SocketDirectory
            do {
                let status = try await ControlClient.call(Supervisor.status, Empty(), runDirectory: runDirectory.path)
                services = status.services.filter { $0.pid != nil }.map(\.name)
                sockets = SocketDirectory("\(runDirectory.path)/sockets")
            } catch {
                // No supervisor: under the units of `export systemd`, the verticals of this host's socket units.
                guard SystemdSuite.isRunning else { throw error }
                let environment = ProcessEnvironment.current
                let local = try SystemdSuite(HostSuite.resolve(environment: environment)).verticals(
                    environment: environment)
                guard !local.names.isEmpty else { throw error }
                (services, sockets) = (local.names, local.sockets)
            }
            let deadline = answer.duration
            if let slowest {
                let spans = await SuiteTraces.gather(
                    .init(traceID: nil, slowest: slowest), services: services, sockets: sockets, timeout: deadline)
                Terminal.print(lines: TraceWaterfall.slowest(spans, count: slowest))
            } else if let traceID {
                let spans = await SuiteTraces.gather(
                    .init(traceID: traceID.lowercased()), services: services, sockets: sockets, timeout: deadline)
                guard !spans.isEmpty else {
                    throw CLIError(
                        .notFound, status: 1, "no running daemon holds trace \(traceID) (its ring may have moved on)")
                }
                Terminal.print("trace \(traceID.lowercased())")
                Terminal.print(lines: TraceWaterfall.text(spans))
            }
        }
    }
}

/// Asks each running vertical for its spans (`daemon.traces`) and puts them together.
enum SuiteTraces {
    /// The spans `input` selects, from every one of `services` that answers (one that does not
    /// is noted on standard error).
    static func gather(
        _ input: Daemon.TracesInput, services: [String], sockets: SocketDirectory, timeout: Duration
    ) async -> [Daemon.SpanInfo] {
        guard let loop = try? EventLoop(name: "svc-supervisor-trace") else { return [] }
        let client = ServiceClient(loop: loop, sockets: sockets)
        defer {
            client.close()
            loop.shutdown()
        }
        var spans: [Daemon.SpanInfo] = []
        for service in services {
            do {
                let reply = try await client.callRaw(
                    service: service, operation: Daemon.traces.fullName, body: input.encodedBody(), timeout: timeout)
                spans += try Daemon.Traces(decoding: reply).spans
            } catch {
                Terminal.error("warning: no spans from \(service): \(error)")
            }
        }
        return spans
    }
}
