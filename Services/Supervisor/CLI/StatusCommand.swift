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

    /// The table `status` prints, one row per service.
    static func table(_ services: [Supervisor.ServiceStatus]) -> String {
        let header = ["NAME", "STATE", "PID", "UPTIME", "RESTARTS", "LAST EXIT", "READY", "STATUS"]
        let rows = services.map { service in
            [
                service.name, service.state.wireName, service.pid.map(String.init) ?? "-",
                service.uptimeSeconds.map(uptime) ?? "-", String(service.restarts),
                service.lastExit.isEmpty ? "-" : service.lastExit, service.ready ? "yes" : "no",
                service.statusText,
            ]
        }
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
