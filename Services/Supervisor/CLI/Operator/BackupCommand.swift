import ArgumentParser
import Glibc
import IOInterface
import ServiceKit

/// `svc-supervisor backup NAME|--all DIR`: asks each vertical for a consistent copy of its
/// store (`daemon.backup`) while it serves, as `DIR/NAME-<UTC time>.sqlite`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up a vertical's store (or every vertical's) to a folder, while it serves.",
        discussion: """
            Examples:
              svc-supervisor backup clinics /var/backups/verticals
              svc-supervisor backup --all /var/backups/verticals   (what the supervisor runs, else every vertical)
            The vertical writes the file itself: DIR must be writable by its user. Restore with `restore`.
            """)

    @Flag(help: "Back up every vertical of the suite.") var all = false
    @Argument(help: "NAME DIR, or DIR with --all.") var arguments: [String] = []
    @OptionGroup var connection: VerticalConnectionOptions

    func validate() throws {
        guard arguments.count == (all ? 1 : 2) else {
            throw ValidationError(all ? "with --all, give only DIR" : "give the vertical's NAME and the DIR to write to")
        }
        if !all, !Contracts.all.contains(where: { $0.name == arguments[0] }) {
            throw ValidationError("no vertical named \"\(arguments[0])\"; known: "
                + Contracts.all.map { $0.name }.joined(separator: ", "))
        }
    }

    func run() async throws {
        try await ControlClient.reporting {
            let folder = try Self.absoluteFolder(arguments.last!)
            let names = all ? await Self.verticals(runDirectory: connection.suite.path) : [arguments[0]]
            let stamp = Self.stamp()
            var failures: [CLIError] = []
            for name in names {
                let path = "\(folder)/\(name)-\(stamp).sqlite"
                do {
                    let backup = try await VerticalCaller.call(
                        Daemon.backup, .init(path: path), service: name, connection: connection)
                    print("\(name): \(backup.path) (\(backup.bytes) bytes)")
                } catch let error as CLIError {
                    StandardError.write("\(name): \(error)\n")
                    failures.append(error)
                }
            }
            if let first = failures.first {
                throw CLIError(status: first.status, "\(failures.count) of \(names.count) backups failed")
            }
        }
    }

    /// With `--all`: the verticals the supervisor runs, or every vertical of the suite when no supervisor answers.
    static func verticals(runDirectory: String) async -> [String] {
        let known = Contracts.all.map { $0.name }
        guard let list = try? await ControlClient.call(Supervisor.status, Empty(), runDirectory: runDirectory) else {
            return known
        }
        return list.services.map { $0.name }.filter { known.contains($0) }
    }

    /// `path` made absolute (the daemon has another working directory) and created if missing.
    static func absoluteFolder(_ path: String) throws(CLIError) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            guard getcwd(&buffer, buffer.count) != nil else {
                throw CLIError(status: 71, "cannot read the working directory")
            }
            absolute = Self.text(buffer) + "/" + path
        }
        while absolute.count > 1, absolute.hasSuffix("/") { absolute.removeLast() }
        var current = ""
        for component in absolute.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o750) != 0 && errno != EEXIST {
                throw CLIError(status: 73, "cannot create \(current): \(String(cString: strerror(errno)))")
            }
        }
        return absolute
    }

    /// The current UTC time as 20261122T123000Z, for file names that sort by time.
    static func stamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
        return text(buffer)
    }

    /// A NUL-terminated C buffer as text.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
