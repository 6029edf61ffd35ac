import VerticalsClient
import VerticalsSupervisorCommands
import ArgumentParser
import Glibc
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor backup NAME|--all DIR`: asks each vertical for a consistent copy of its
/// store (`daemon.backup`) while it serves, as `DIR/NAME-<UTC time>.sqlite` (`-2`, `-3`, … when
/// that exists: a backup never replaces a file).
///
/// The vertical writes the copy under its own state directory (`backups/`), the one folder it may
/// write under systemd's `ProtectSystem=strict`; this command then copies it to DIR and removes the
/// vertical's copy, so DIR needs to be writable by whoever runs the command, not by the vertical's user.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up a vertical's store (or every vertical's) to a folder, while it serves.",
        discussion: """
            Examples:
              svc-supervisor backup orders /var/backups/verticals
              svc-supervisor backup --socket-dir /tmp/s --state-dir /tmp/orders-state orders /var/backups/verticals
              svc-supervisor backup --all /var/backups/verticals   (what the supervisor runs, else every vertical)
            The vertical writes the copy (0600) under its state directory; this command copies it to DIR
            (0600, yours) and removes the vertical's, so DIR must be writable by you, and the state
            directory readable (root, under systemd). Only a plain file of the vertical's own is taken.
            Restore with `restore`.
            """)

    @Flag(help: "Back up every vertical of the suite.") var all = false
    @Argument(help: "NAME DIR, or DIR with --all.") var arguments: [String] = []
    @Option(
        name: .long,
        help: """
            The vertical's state folder, where it writes its backup (default: beside its socket \
            folder, by the run directory's layout).
            """)
    var stateDir: String?
    @OptionGroup var connection: VerticalConnectionOptions

    func validate() throws {
        guard arguments.count == (all ? 1 : 2) else {
            throw ValidationError(
                all ? "with --all, give only DIR" : "give the vertical's NAME and the DIR to write to")
        }
        if all && stateDir != nil { throw ValidationError("--state-dir names one vertical's folder: not with --all") }
    }

    func run() async throws {
        try await ControlClient.reporting {
            if !all { try await UnknownVertical.refuse(arguments[0], sockets: connection.sockets) }
            let folder = try Self.absoluteFolder(arguments.last!)
            let names = all ? await Self.verticals(connection: connection) : [arguments[0]]
            let stamp = BackupFile.timestamp()
            var failures: [CLIError] = []
            for name in names {
                do {
                    let (path, bytes) = try await Self.backUp(
                        name, into: folder, stamp: stamp, stateFolder: stateDir, connection: connection)
                    Terminal.print("\(name): \(path) (\(bytes) bytes)")
                } catch let error as CLIError {
                    Terminal.error("\(name): \(error)")
                    failures.append(error)
                }
            }
            if let first = failures.first {
                throw CLIError(
                    first.code, status: first.status, "\(failures.count) of \(names.count) backups failed", cause: first
                )
            }
        }
    }

    /// Has `name` write its backup under its state directory, under a name no other run of this
    /// command uses, then copies it to `folder` as `NAME-<stamp>.sqlite`; returns where it is and its size.
    ///
    /// The daemon is asked for that name and not believed about where it wrote it: the command
    /// takes the file from the state folder it derives itself, and only a plain file of the
    /// vertical's own (``BackupFile/take(_:fromStateFolder:intoFolder:as:)``), so a daemon that
    /// answers another path, or leaves a link there, gets nothing read, moved or removed.
    static func backUp(
        _ name: String, into folder: String, stamp: String, stateFolder given: String?,
        connection: VerticalConnectionOptions
    ) async throws -> (path: String, bytes: Int) {
        let state =
            try given.map { $0.hasPrefix("/") ? $0 : ProgramPaths.currentDirectory() + "/" + $0 }
            ?? stateFolder(of: name, connection: connection)
        let file = "\(name)-\(stamp)-\(getpid()).sqlite"
        let backup = try await VerticalCaller.call(
            Daemon.backup, .init(path: file), service: name, connection: connection)
        let expected = "\(state)/backups/\(file)"
        // Compared as text, never resolved: the answer is the vertical's, and no path of its is
        // looked up by root. The daemon may spell its folder otherwise (`/var/run` for `/run`).
        if !backup.path.hasSuffix("/backups/\(file)") {
            Terminal.error(
                "\(name): answered that its backup is \(backup.path); taking \(expected), where it was asked to write")
        }
        do {
            let setting = SupervisorSettings.backupMaxBytes
            let bound = setting.validValue(in: ProcessEnvironment.current) ?? setting.defaultValue ?? .max
            return try BackupFile.take(
                file, fromStateFolder: state, intoFolder: folder, as: "\(name)-\(stamp).sqlite", maxBytes: bound)
        } catch let error as StoreError {
            throw CLIError(
                .failed, status: 73,
                "\(name)'s backup \(expected) was not taken into \(folder): \(error.message) "
                    + "(a file this user cannot read there, or cannot write in \(folder): run as one who can)",
                details: [ErrorDetail("path", expected)], cause: error)
        }
    }

    /// The state folder of vertical `name` for the suite `connection` names: `<run>/state/NAME`
    /// beside `<run>/sockets`, `/var/lib/verticals/NAME` beside systemd's `/run/verticals`.
    static func stateFolder(of name: String, connection: VerticalConnectionOptions) throws(CLIError) -> String {
        let sockets = connection.sockets.path
        if sockets == DaemonPaths.systemSocketDirectory { return "\(DaemonPaths.systemStateParent)/\(name)" }
        guard sockets.hasSuffix("/sockets") || sockets == "sockets" else {
            throw CLIError(
                .usage, status: 64,
                "cannot tell where \(name) keeps its state beside the socket folder \(sockets): "
                    + "give --run-dir, or --socket-dir as <run dir>/sockets or \(DaemonPaths.systemSocketDirectory)")
        }
        let parent = sockets == "sockets" ? "." : String(sockets.dropLast("/sockets".count))
        return RunDirectory(parent.isEmpty ? "/" : parent).stateDirectory(for: name)
    }

    /// With `--all`: the verticals the supervisor runs that have a socket, or, when no supervisor
    /// answers, every vertical with a socket in the suite's folder.
    static func verticals(connection: VerticalConnectionOptions) async -> [String] {
        let sockets = UnknownVertical.socketNames(in: connection.sockets.path)
        guard let list = try? await ControlClient.call(Supervisor.status, Empty(), runDirectory: connection.suite.path)
        else {
            return sockets
        }
        return list.services.map { $0.name }.filter { sockets.contains($0) }
    }

    /// `path` made absolute (the daemon has another working directory) and created if missing.
    static func absoluteFolder(_ path: String) throws(CLIError) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            guard getcwd(&buffer, buffer.count) != nil else {
                throw CLIError(.system, status: 71, "cannot read the working directory")
            }
            absolute = Self.text(buffer) + "/" + path
        }
        while absolute.count > 1, absolute.hasSuffix("/") { absolute.removeLast() }
        var current = ""
        for component in absolute.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o750) != 0 && errno != EEXIST {
                throw CLIError.system(status: 73, "cannot create \(current)", path: current)
            }
        }
        return absolute
    }

    /// A NUL-terminated C buffer as text.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
