import ArgumentParser
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor status [NAME] [--json]`: every service's state (or one's, in full), as a
/// table or JSON; exit status 3 when a service is failed, so a script can tell (as
/// `systemctl is-failed` lets one).
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show every supervised service: state, pid, uptime, restarts, last exit.",
        discussion: """
            The first line names the suite shown, by its run directory. With two suites
            running, the CLI reaches the one `up` started last unless --run-dir (or
            $VERTICALS_RUN_DIR) names the other.

            The table shortens a long LAST EXIT or STATUS with "…" to fit the terminal
            (\(StatusTable.defaultWidth) columns off one); `status NAME` and --json give the full text.

            Exit status: 0 when no service (or NAME) is failed, \(failedExitStatus) when one is (it
            gave up, or `restart = never` left it down), 64 for an unknown NAME, 69 when
            no supervisor answers.
            """)

    /// The exit status while a service is failed (systemctl's "not running").
    static let failedExitStatus: Int32 = 3

    @Argument(help: "Only this service, every field in full.") var name: String?

    @OptionGroup var runDirectory: RunDirectoryOption

    @Flag(name: .long, help: "Print the status as JSON (supervisor.StatusList).")
    var json = false

    func run() async throws {
        var anyFailed = false
        try await ControlClient.reporting {
            let location = runDirectory.location
            var list = try await ControlClient.call(Supervisor.status, Empty(), location: location)
            if let name {
                guard let service = list.services.first(where: { $0.name == name }) else {
                    throw CLIError(
                        .notFound, status: 64,
                        "no service named \"\(name)\"; known: \(list.services.map(\.name).joined(separator: ", "))")
                }
                list.services = [service]
            }
            if json {
                Terminal.json(try list.jsonString(pretty: true))
            } else if let service = list.services.first, name != nil {
                Terminal.print(lines: Self.details(service))
            } else {
                // Which suite, first: with two running, the CLI shows the one `up` started last.
                Terminal.print(
                    lines: ["\(location.heading)"] + Self.table(list.services, width: StatusTable.terminalWidth()))
            }
            anyFailed = list.services.contains { $0.state == .failed }
        }
        if anyFailed { throw ExitCode(Self.failedExitStatus) }
    }

    /// One service, a field per line, nothing shortened.
    static func details(_ service: Supervisor.ServiceStatus) -> [TerminalText] {
        let header = [
            "NAME", "STATE", "PID", "UPTIME", "READY SINCE", "RESTARTS", "BACKOFF", "RSS", "REPLICA", "LAST EXIT",
            "STATUS",
        ]
        let cells = row(service)
        let width = header.map(\.count).max() ?? 0
        return zip(header, cells).map { label, cell in
            "\(label.lowercased()):\(String(repeating: " ", count: width - label.count + 1))\(cell)"
        }
    }

    /// The table `status` prints, one row per service, at most `width` columns wide when it can
    /// (LAST EXIT and STATUS give way, ending in "…"). RESTARTS is the total, then those in
    /// the budget's window; READY SINCE is local time; REPLICA is the state of the Litestream that
    /// copies its store (``replicaText(_:)``); LAST EXIT leads with the reason's category.
    static func table(_ services: [Supervisor.ServiceStatus], width: Int? = nil) -> [TerminalText] {
        let header = [
            "NAME", "STATE", "PID", "UPTIME", "READY SINCE", "RESTARTS", "BACKOFF", "RSS", "REPLICA", "LAST EXIT",
            "STATUS",
        ]
        return StatusTable(header: header, rows: services.map(row), shrinkable: [9, 10]).text(width: width)
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
        return [
            service.name, stateText(service.state), pid, up, since, restarts, backoff, rss,
            service.replica.map(replicaText) ?? "-", exit, service.statusText,
        ]
    }

    /// The replica's Litestream in one cell: `running`, `running, 2 restarts`, `backoff 1.5s, 1
    /// restart: crash: killed by signal 9 (SIGKILL)`, `failed: startFailed: no litestream program…`.
    static func replicaText(_ replica: Supervisor.ReplicaStatus) -> String {
        var text = replica.state.wireName
        if let seconds = replica.backoffRemainingSeconds { text += " \(oneDecimal(seconds))s" }
        if replica.restarts > 0 { text += ", \(replica.restarts) restart\(replica.restarts == 1 ? "" : "s")" }
        if replica.state != .running, !replica.lastExit.isEmpty {
            text += ": " + (replica.exitReason.map { "\($0.wireName): " } ?? "") + replica.lastExit
        }
        return text
    }

    /// The state as `status` says it: `idle (on demand)` for an idle on-demand service (its
    /// next caller starts it), which is not `stopped` (an operator's stop: calls fail at once).
    static func stateText(_ state: Supervisor.ServiceState) -> String {
        state == .idle ? "idle (on demand)" : state.wireName
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
