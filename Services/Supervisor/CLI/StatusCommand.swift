import ArgumentParser
import IOInterface

/// `svc-supervisor status [--json]`: every service's state, as a table or JSON.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show every supervised service: state, pid, uptime, restarts, last exit.")

    @OptionGroup var runDirectory: RunDirectoryOption

    @Flag(name: .long, help: "Print the status as JSON (supervisor.StatusList).")
    var json = false

    func run() async throws {
        try await ControlClient.reporting {
            let list = try await ControlClient.call(Supervisor.status, Empty(), runDirectory: runDirectory.path)
            if json {
                print(try list.jsonString(pretty: true))
            } else {
                print(Self.table(list.services), terminator: "")
            }
        }
    }

    /// The table `status` prints, one row per service. RESTARTS is the total, then those in
    /// the budget's window; READY SINCE is local time; LAST EXIT leads with the reason's category.
    static func table(_ services: [Supervisor.ServiceStatus]) -> String {
        let header = ["NAME", "STATE", "PID", "UPTIME", "READY SINCE", "RESTARTS", "BACKOFF", "RSS", "LAST EXIT", "STATUS"]
        let rows = services.map(row)
        let table: [[String]] = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in table {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var text = ""
        for row in table {
            var line = ""
            for (column, cell) in row.enumerated() {
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - cell.count + 2) }
            }
            text += line + "\n"
        }
        return text
    }

    /// One service's cells, in the header's order.
    static func row(_ service: Supervisor.ServiceStatus) -> [String] {
        let pid: String = service.pid.map { String($0) } ?? "-"
        let up: String = service.uptimeSeconds.map { uptime($0) } ?? "-"
        let since: String = service.readySince.map { WallClockText.localTime($0) } ?? "-"
        let restarts = "\(service.restarts) (\(service.restartsInWindow) in window)"
        let backoff: String = service.backoffRemainingSeconds.map { "\(oneDecimal($0))s" } ?? "-"
        let rss: String = service.rssBytes.map { memory($0) } ?? "-"
        let reason: String = service.exitReason.map { "\($0.wireName): " } ?? ""
        let exit = service.lastExit.isEmpty ? "-" : reason + service.lastExit
        return [service.name, service.state.wireName, pid, up, since, restarts, backoff, rss, exit, service.statusText]
    }

    /// "812 KiB", "25.3 MiB".
    static func memory(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(oneDecimal(Double(bytes) / Double(1 << 20))) MiB" : "\(bytes >> 10) KiB"
    }

    /// `value` with one decimal: "0.8", "25.0".
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// "45s", "12m03s", "3h07m", "2d04h".
    static func uptime(_ seconds: Double) -> String {
        let total = Int(seconds)
        let (days, hours, minutes, secs) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if days > 0 { return "\(days)d\(two(hours))h" }
        if total >= 3600 { return "\(total / 3600)h\(two(minutes))m" }
        if total >= 60 { return "\(minutes)m\(two(secs))s" }
        return "\(secs)s"
    }
}
