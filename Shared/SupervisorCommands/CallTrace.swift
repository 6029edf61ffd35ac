import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// The trace `svc-supervisor call --trace` starts: a fresh sampled trace id, sent as the
/// call's traceparent, then its waterfall gathered from the running daemons' rings.
struct CallTrace {
    /// The CLI's own span: the parent of the called vertical's server span (not recorded anywhere).
    let identity = TraceIdentity(
        traceHigh: .random(in: 1...UInt64.max), traceLow: .random(in: 1...UInt64.max),
        spanID: .random(in: 1...UInt64.max), sampled: true)

    /// Prints the trace id and its waterfall on standard error. The called vertical records its
    /// span just after it answers, so the gathering is asked again (bounded: 25 × 20 ms) until
    /// that span is among those gathered.
    func report(connection: VerticalConnectionOptions, service: String) async {
        let services: [String]
        if let status = try? await ControlClient.call(Supervisor.status, Empty(), runDirectory: connection.suite.path) {
            services = status.services.filter { $0.pid != nil }.map(\.name)
        } else {
            services = [service] // no supervisor (e.g. under systemd): the called vertical alone
        }
        let ownSpan = identity.spanIDText
        var spans: [Daemon.SpanInfo] = []
        for attempt in 0..<25 {
            spans = await SuiteTraces.gather(
                .init(traceID: identity.traceID), services: services, sockets: connection.sockets,
                timeout: connection.deadline)
            if spans.contains(where: { $0.parentSpanID == ownSpan }) || attempt == 24 { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        Terminal.error(TerminalText(lines: ["trace \(identity.traceID)"] + TraceWaterfall.text(spans)))
    }
}
