import ArgumentParser
import Glibc
import VerticalsClient

/// `svc-supervisor logs NAME [-n N] [-f]`: a service's log, read straight from its file;
/// `svc-supervisor logs --all [-n N] [-f]`: every service's, interleaved by time, each line
/// led by its service's name.
///
/// Needs no running supervisor: it reads `<run dir>/logs/<name>.log`, or, with no such file on a
/// host where systemd runs the vertical's unit (`export systemd`), its journal (``SystemdSuite``). A name with no log is exit
/// 64 when a running supervisor knows no such service, else 66 (EX_NOINPUT), naming the file. `logs NAME -f` follows
/// through the supervisor's `logs` stream when one answers (``LogsFollow``); otherwise, and for
/// `--all -f`, it waits for new lines with inotify (no polling) and follows the file across rotation.
struct LogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs", abstract: "Print a service's log (stdout, stderr and the supervisor's notes).")

    @Argument(help: "The service, as the manifest names it.") var name: String?
    @Flag(help: "Every service's log, interleaved by time, each line led by the service's name.") var all = false
    @Option(name: [.customShort("n"), .long], help: "How many of the last lines to print.") var lines = 50
    @Flag(name: .short, help: "Keep printing new lines as they come (Ctrl-C stops).") var follow = false
    @Flag(
        help: """
            Print each line's bytes as the vertical wrote them. Without it, control characters, escape \
            sequences, bidirectional controls and bytes that are not UTF-8 show as visible escapes.
            """)
    var raw = false
    @OptionGroup var runDirectory: RunDirectoryOption

    func validate() throws {
        guard lines >= 0 else { throw ValidationError("-n must be 0 or more") }
        switch (name, all) {
        case (nil, false): throw ValidationError("name a service (`logs NAME`), or give --all")
        case (.some, true): throw ValidationError("give a service's name or --all, not both")
        case (let name?, false):
            guard !name.contains("/"), !name.isEmpty else { throw ValidationError("\"\(name)\" is not a service name") }
        case (nil, true): break
        }
    }

    func run() async throws {
        let folder = "\(runDirectory.path)/logs"
        guard let name else {
            try AllLogs(folder: folder, raw: raw).run(lines: lines, follow: follow)
            return
        }
        let path = "\(folder)/\(name).log"
        if access(path, F_OK) != 0, SystemdSuite.isRunning {
            let systemd = try SystemdSuite(HostSuite.resolve(environment: ProcessEnvironment.current))
            if systemd.hasUnit(name) {
                // The units of `export systemd`: the vertical logs to the journal.
                guard systemd.printJournal(of: name, lines: lines, follow: follow, raw: raw) == 0 else {
                    throw ExitCode(1)
                }
                return
            }
        }
        if access(path, F_OK) != 0 {
            // No log: a typo is bad usage (64) when a running supervisor can say which names it has.
            try await ControlClient.reporting {
                try await UnknownVertical.refuse(name, sockets: SocketDirectory("\(runDirectory.path)/sockets"))
            }
        }
        if follow {
            var outcome = LogsFollow.Outcome.noSupervisor
            try await ControlClient.reporting {
                outcome = try await LogsFollow.run(name: name, lines: lines, runDirectory: runDirectory.path, raw: raw)
            }
            if case .ended = outcome {
                // What the stream printed is the file up to now: go on from the file's end.
                let file = LogFile(path: path)
                _ = file.readToEnd()
                try followFile(file, path: path, folder: folder)
                return
            }
        }
        let file = LogFile(path: path)
        guard file.isOpen || follow else {
            Terminal.error("error: no log for \(name) at \(path): is the name right, and did the supervisor run here?")
            throw ExitCode(66)
        }
        let bytes = file.readToEnd()
        let tail = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().suffix(lines)
        for line in tail { Terminal.logLine(line, raw: raw) }
        Terminal.flush()
        guard follow else { return }
        try followFile(file, path: path, folder: folder)
    }

    /// Prints what is added to `file` (at `path`, in `folder`) as it comes, across rotation.
    private func followFile(_ file: LogFile, path: String, folder: String) throws {
        var file = file
        var partial: [UInt8] = []
        let watcher = try LogFile.watch(folder)
        var events = [UInt8](repeating: 0, count: 4096)
        while read(watcher, &events, events.count) > 0 {
            if file.wasReplaced { file = LogFile(path: path) } // rotated: the new file from its start
            partial += file.readToEnd()
            // Whole lines only: a line cut between two reads shows once, whole.
            guard let end = partial.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            for line in partial[..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                Terminal.logLine(line, raw: raw)
            }
            partial.removeSubrange(...end)
            Terminal.flush()
        }
    }
}

/// A log file read from where the last read stopped; closed when dropped.
final class LogFile {
    let path: String
    private let fd: Int32
    private let inode: UInt

    init(path: String) {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        var info = stat()
        inode = fd >= 0 && fstat(fd, &info) == 0 ? UInt(info.st_ino) : 0
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    var isOpen: Bool { fd >= 0 }

    /// An inotify descriptor that wakes on every write, creation and rename in `folder`.
    static func watch(_ folder: String) throws -> Int32 {
        let watcher = inotify_init1(Int32(IN_CLOEXEC))
        guard watcher >= 0, inotify_add_watch(watcher, folder, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) >= 0 else {
            Terminal.error("error: cannot watch \(folder): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        return watcher
    }

    /// True when the path now names another file (rotation), or a file appeared where none was.
    var wasReplaced: Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return !isOpen || UInt(info.st_ino) != inode
    }

    /// Every byte from the current position to the end.
    func readToEnd() -> [UInt8] {
        guard fd >= 0 else { return [] }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }
}
