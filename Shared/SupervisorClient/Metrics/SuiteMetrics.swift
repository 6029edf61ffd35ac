#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract

/// The whole suite's metrics, as `svc-supervisor metrics` prints them: each daemon's own
/// (`daemon.metrics`, labelled with its service) and the supervisor's view of every service.
public enum SuiteMetrics {
    /// The supervisor's families for `services`: restarts, state (one sample per known state,
    /// 1 for the current one), readiness, resident memory (from `/proc/<pid>/statm`), and
    /// whether the daemon's own metrics could be scraped (`scraped[name]`).
    public static func supervisorFamilies(
        _ services: [Supervisor.ServiceStatus], scraped: [String: Bool],
        residentBytes: (Int) -> Int? = SuiteMetrics.residentBytes(pid:)
    ) -> [Exposition.Family] {
        var restarts = Exposition.Family(
            name: "verticals_service_restarts_total", type: "counter",
            help: "Restarts of the service since the supervisor started.")
        var state = Exposition.Family(
            name: "verticals_service_state", type: "gauge", help: "1 for the service's current state, 0 for the others."
        )
        var ready = Exposition.Family(
            name: "verticals_service_ready", type: "gauge", help: "Whether the service said READY=1 and serves.")
        var rss = Exposition.Family(
            name: "verticals_service_resident_memory_bytes", type: "gauge",
            help: "Resident set size of the service's process.")
        var up = Exposition.Family(
            name: "verticals_service_scrape_up", type: "gauge", help: "Whether the service answered daemon.metrics.")
        for service in services {
            let label = [("service", service.name)]
            restarts.samples.append(.init(name: restarts.name, labels: label, value: "\(service.restarts)"))
            for known in Supervisor.ServiceState.knownCases {
                state.samples.append(
                    .init(
                        name: state.name, labels: label + [("state", known.wireName)],
                        value: known == service.state ? "1" : "0"))
            }
            ready.samples.append(.init(name: ready.name, labels: label, value: service.ready ? "1" : "0"))
            if let pid = service.pid, let bytes = residentBytes(pid) {
                rss.samples.append(.init(name: rss.name, labels: label, value: "\(bytes)"))
            }
            up.samples.append(.init(name: up.name, labels: label, value: scraped[service.name] == true ? "1" : "0"))
        }
        return [restarts, state, ready, rss, up]
    }

    /// The resident set size of process `pid` in bytes, from `/proc/<pid>/statm`; `nil` when it is gone.
    public static func residentBytes(pid: Int) -> Int? {
        let fd = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared text lib data dt", in pages.
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Writes `text` to `<directory>/verticals.prom` by rename (``GeneratedFolder``), so
    /// node_exporter's textfile collector never reads half a file (it skips the temporary,
    /// whose name does not end in `.prom`).
    public static func writeTextfile(_ text: String, directory: String) throws(SupervisorError) {
        _ = try GeneratedFolder(path: directory).replace(with: ["verticals.prom": text]) { _ in false }
    }
}
