import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsWire

/// A suite as systemd runs it (the units of `svc-supervisor export systemd`), for the commands
/// that otherwise ask a running svc-supervisor: which verticals this host runs and where they
/// listen (their `.socket` units), and their logs (the journal, `journalctl -o json`). Its units
/// are named after the suite (``HostSuite``): `NAME-SERVICE.service`, sockets in `/run/NAME`.
package struct SystemdSuite: Sendable {
    /// Which suite.
    package let suite: HostSuite

    /// The suite `suite` names.
    package init(_ suite: HostSuite) {
        self.suite = suite
    }

    /// Unit names start with this.
    var unitPrefix: String { suite.unitPrefix }
    /// Where the units' Unix sockets are.
    var socketDirectory: String { suite.socketDirectory }
    static let systemctl = "/usr/bin/systemctl"
    static let journalctl = "/usr/bin/journalctl"

    /// Whether systemd runs this host (sd_booted: `/run/systemd/system` exists) and its tools are here.
    package static var isRunning: Bool {
        access("/run/systemd/system", F_OK) == 0 && access(systemctl, X_OK) == 0 && access(journalctl, X_OK) == 0
    }

    /// The folder that holds the suite's target (`NAME.target`, its `FragmentPath`), where `export
    /// systemd`'s files were installed beside the units; nil when systemd knows no such unit.
    func unitFolder() -> String? {
        var path: String?
        ProgramOutput.lines(
            Self.systemctl, ["show", "--property=FragmentPath", "--value", suite.target]
        ) { line in
            if path == nil, line.hasPrefix("/") { path = line }
        }
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// The main process of `SUITE-NAME.service`, while it runs (`MainPID`; nil when it does
    /// not, or systemd does not know the unit).
    package func mainPID(of name: String) -> Int32? {
        var pid: Int32?
        ProgramOutput.lines(Self.systemctl, ["show", "--property=MainPID", "--value", "\(unitPrefix)\(name).service"]) {
            line in
            if pid == nil, let value = Int32(line), value > 0 { pid = value }
        }
        return pid
    }

    /// Whether `SUITE-NAME.service` is a unit systemd knows.
    func hasUnit(_ name: String) -> Bool {
        var found = false
        ProgramOutput.lines(
            Self.systemctl, ["list-unit-files", "--no-legend", "--plain", "\(unitPrefix)\(name).service"]
        ) { line in found = found || line.hasPrefix("\(unitPrefix)\(name).service") }
        return found
    }

    /// The verticals whose `.socket` units run on this host, and where each listens: a TCP
    /// `ListenStream=` as its endpoint, else its socket in ``socketDirectory``; the TLS files
    /// from `environment` (`VERTICALS_TLS_*`: an operator's certificate, for TCP).
    func verticals(environment: [String: String]) -> (names: [String], sockets: SocketDirectory) {
        var units: [String] = []
        ProgramOutput.lines(
            Self.systemctl, ["list-units", "--no-legend", "--plain", "--type=socket", "\(unitPrefix)*.socket"]
        ) {
            if let unit = $0.split(separator: " ").first, unit.hasSuffix(".socket") { units.append(String(unit)) }
        }
        var scoped = environment
        scoped[DaemonSettings.socketDir.name] = environment[DaemonSettings.socketDir.name] ?? socketDirectory
        var names: [String] = []
        for unit in units {
            let name = String(unit.dropFirst(unitPrefix.count).dropLast(".socket".count))
            var listen: String?
            ProgramOutput.lines(Self.systemctl, ["show", "--property=Listen", "--value", unit]) { line in
                // "10.232.45.10:7002 (Stream)" or "/run/verticals/clinics.sock (Stream)"
                if listen == nil, let first = line.split(separator: " ").first { listen = String(first) }
            }
            guard let listen else { continue }
            names.append(name)
            let variable = SocketDirectory.endpointVariablePrefix + SocketDirectory.endpointKey(for: name)
            if !listen.hasPrefix("/"), scoped[variable] == nil { scoped[variable] = "tcp:\(listen)" }
        }
        return (names.sorted(), SocketDirectory.from(environment: scoped))
    }

    /// Prints the last `lines` lines of `SUITE-NAME.service`'s journal, each its `MESSAGE`
    /// (from `journalctl -o json`), and keeps printing new ones when `follow`: shown through
    /// ``VisibleText``, or as its bytes when `raw`. Returns journalctl's status.
    func printJournal(of name: String, lines: Int, follow: Bool, raw: Bool) -> Int32? {
        var arguments = ["-o", "json", "--no-pager", "-n", "\(lines)", "-u", "\(unitPrefix)\(name).service"]
        if follow { arguments.append("-f") }
        return ProgramOutput.lines(Self.journalctl, arguments) { line in
            guard let message = Self.message(ofJournalEntry: line) else { return }
            Terminal.logLine(message, raw: raw)
            Terminal.flush()
        }
    }

    /// The `MESSAGE` of one `journalctl -o json` line: a string, or an array of bytes when the
    /// message is not valid UTF-8 (journalctl's convention); nil for anything else.
    static func message(ofJournalEntry line: String) -> [UInt8]? {
        guard case .object(let members)? = try? JSONValue(parsing: line),
            let value = members.first(where: { $0.key == "MESSAGE" })?.value
        else { return nil }
        switch value {
        case .string(let text):
            return Array(text.utf8)
        case .array(let bytes):
            return bytes.compactMap { if case .number(let digits) = $0 { UInt8(digits) } else { nil } }
        default:
            return nil
        }
    }
}
