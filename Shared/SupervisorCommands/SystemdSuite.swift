import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsWire

/// The suite as systemd runs it (the units of `svc-supervisor export systemd`), for the commands
/// that otherwise ask a running svc-supervisor: which verticals this host runs and where they
/// listen (their `.socket` units), and their logs (the journal, `journalctl -o json`).
package enum SystemdSuite {
    /// Unit names start with this (the export's default layout).
    static let unitPrefix = "verticals-"
    /// Where the units' Unix sockets are.
    static let socketDirectory = "/run/verticals"
    static let systemctl = "/usr/bin/systemctl"
    static let journalctl = "/usr/bin/journalctl"

    /// Whether systemd runs this host (sd_booted: `/run/systemd/system` exists) and its tools are here.
    package static var isRunning: Bool {
        access("/run/systemd/system", F_OK) == 0 && access(systemctl, X_OK) == 0 && access(journalctl, X_OK) == 0
    }

    /// The folder that holds `verticals.target` (its `FragmentPath`), where `export systemd`'s
    /// files were installed beside the units; nil when systemd knows no such unit.
    static func unitFolder() -> String? {
        var path: String?
        ProgramOutput.lines(
            systemctl, ["show", "--property=FragmentPath", "--value", "\(unitPrefix.dropLast()).target"]
        ) { line in
            if path == nil, line.hasPrefix("/") { path = line }
        }
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// The main process of `verticals-NAME.service`, while it runs (`MainPID`; nil when it does
    /// not, or systemd does not know the unit).
    package static func mainPID(of name: String) -> Int32? {
        var pid: Int32?
        ProgramOutput.lines(systemctl, ["show", "--property=MainPID", "--value", "\(unitPrefix)\(name).service"]) {
            line in
            if pid == nil, let value = Int32(line), value > 0 { pid = value }
        }
        return pid
    }

    /// Whether `verticals-NAME.service` is a unit systemd knows.
    static func hasUnit(_ name: String) -> Bool {
        var found = false
        ProgramOutput.lines(
            systemctl, ["list-unit-files", "--no-legend", "--plain", "\(unitPrefix)\(name).service"]
        ) { line in found = found || line.hasPrefix("\(unitPrefix)\(name).service") }
        return found
    }

    /// The verticals whose `.socket` units run on this host, and where each listens: a TCP
    /// `ListenStream=` as its endpoint, else its socket in ``socketDirectory``; the TLS files
    /// from `environment` (`VERTICALS_TLS_*`: an operator's certificate, for TCP).
    static func verticals(environment: [String: String]) -> (names: [String], sockets: SocketDirectory) {
        var units: [String] = []
        ProgramOutput.lines(
            systemctl, ["list-units", "--no-legend", "--plain", "--type=socket", "\(unitPrefix)*.socket"]
        ) {
            if let unit = $0.split(separator: " ").first, unit.hasSuffix(".socket") { units.append(String(unit)) }
        }
        var scoped = environment
        scoped[DaemonSettings.socketDir.name] = environment[DaemonSettings.socketDir.name] ?? socketDirectory
        var names: [String] = []
        for unit in units {
            let name = String(unit.dropFirst(unitPrefix.count).dropLast(".socket".count))
            var listen: String?
            ProgramOutput.lines(systemctl, ["show", "--property=Listen", "--value", unit]) { line in
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

    /// Prints the last `lines` lines of `verticals-NAME.service`'s journal, each its `MESSAGE`
    /// (from `journalctl -o json`), and keeps printing new ones when `follow`: shown through
    /// ``VisibleText``, or as its bytes when `raw`. Returns journalctl's status.
    static func printJournal(of name: String, lines: Int, follow: Bool, raw: Bool) -> Int32? {
        var arguments = ["-o", "json", "--no-pager", "-n", "\(lines)", "-u", "\(unitPrefix)\(name).service"]
        if follow { arguments.append("-f") }
        return ProgramOutput.lines(journalctl, arguments) { line in
            guard let message = message(ofJournalEntry: line) else { return }
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
