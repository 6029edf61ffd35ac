import ArgumentParser
import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor metrics [--textfile DIR]`: the whole suite's metrics in the Prometheus text
/// exposition format — every running daemon's own (`daemon.metrics`, labelled with its
/// service), the supervisor's own, and the supervisor's view of each service.
struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Print the suite's metrics in Prometheus text format, or write them for node_exporter.",
        discussion: """
            Each daemon answers daemon.metrics over its socket: requests, errors by code and latency per
            operation, open connections, requests in flight and its loop's queue depth. The supervisor adds
            restarts, state, readiness and resident memory per service, and verticals_service_scrape_up
            (0 when a daemon did not answer, or its text did not parse: the others still print).
            Every sample carries service="<name>": the supervisor owns that label and every family named
            verticals_service_*. A daemon's own service label becomes exported_service; its samples of the
            supervisor's families, or of a family another daemon gives with another type, are dropped and
            counted in verticals_service_scrape_rewritten_samples{service,reason}.
            With --textfile DIR the text goes to DIR/verticals.prom, written to a temporary file and renamed,
            for node_exporter's textfile collector (e.g. from a systemd timer or cron every 15 s).
            Exit status: 0 on success, 1 when the file cannot be written, 69 when no supervisor answers.
            """)

    @OptionGroup var runDirectory: RunDirectoryOption

    @Option(name: .long, help: "Write DIR/verticals.prom atomically instead of printing.")
    var textfile: String?

    @OptionGroup var answer: DaemonAnswerTimeout

    func run() async throws {
        try await ControlClient.reporting {
            let status = try await ControlClient.call(Supervisor.status, Empty(), runDirectory: runDirectory.path)
            let text = try await gather(status.services)
            if let textfile {
                do {
                    try SuiteMetrics.writeTextfile(text, directory: textfile)
                } catch {
                    throw CLIError(.failed, status: 1, "\(error)", cause: error)
                }
            } else {
                // Valid Prometheus text with no control character left in it (``Exposition``).
                Terminal.print(lines: text.split(separator: "\n").map { "\($0)" })
            }
        }
    }

    /// Every daemon's metrics and the supervisor's, as one exposition (``SuiteExposition``).
    private func gather(_ services: [Supervisor.ServiceStatus]) async throws -> String {
        let loop = try EventLoop(name: "svc-supervisor-metrics")
        let verticals = ServiceClient(loop: loop, sockets: SocketDirectory("\(runDirectory.path)/sockets"))
        let control = ServiceClient(loop: loop, sockets: SocketDirectory(runDirectory.path))
        defer {
            verticals.close()
            control.close()
            loop.shutdown()
        }
        let deadline = answer.duration
        var suite = SuiteExposition()
        for service in services where service.pid != nil {
            suite.add(service.name, exposition: await scrape(service.name, client: verticals, deadline: deadline))
        }
        suite.add(Supervisor.name, exposition: await scrape(Supervisor.name, client: control, deadline: deadline))
        let merged = suite.merged(services)
        for (service, reason) in merged.unparsed {
            Terminal.error("warning: the metrics of \(service) are not Prometheus text (\(reason)): left out")
        }
        return merged.text
    }

    /// `service`'s own exposition; nil (with a note on standard error) when it did not answer.
    private func scrape(_ service: String, client: ServiceClient, deadline: Duration) async -> String? {
        do {
            let reply = try await client.callRaw(
                service: service, operation: Daemon.metrics.fullName, body: Empty().encodedBody(), timeout: deadline)
            return try Daemon.Metrics(decoding: reply).exposition
        } catch {
            Terminal.error("warning: no metrics from \(service): \(error)")
            return nil
        }
    }
}
