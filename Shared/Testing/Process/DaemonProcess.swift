import Glibc
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// A real daemon in a separate process, started with posix_spawn (independent of our
/// EventLoop), tagged with `VT_TEST_TAG` so that a leftover can be found, and always
/// killed when the test ends.
public final class DaemonProcess {
    public let pid: pid_t
    public private(set) var exitStatus: Int32?

    /// The folder holding the test bundle, where SwiftPM also puts `vt-testd`.
    public static var productsDirectory: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(count > 0)
        let exe = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var dir = exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]
        // On Linux the test bundle is `<products>/VerticalsPackageTests.xctest`, a file.
        if dir.hasSuffix(".xctest") { dir = dir[..<(dir.lastIndex(of: "/") ?? dir.endIndex)] }
        return String(dir)
    }

    /// Starts `executable` (a path, or a product name in ``productsDirectory``); with
    /// `stderrPath`, its standard error goes to that file (created or truncated) for the test to read;
    /// with `standardStreams`, that descriptor is its standard input and output (one end of a socketpair).
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        stderrPath: String? = nil,
        standardStreams: Int32? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        requireOwnThread("DaemonProcess", sourceLocation: sourceLocation)
        let path = executable.hasPrefix("/") ? executable : "\(Self.productsDirectory)/\(executable)"
        var env = TestChild.environment(environment)
        if env[DaemonSettings.logLevel.name] == nil { env[DaemonSettings.logLevel.name] = "warning" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        if let standardStreams {
            posix_spawn_file_actions_adddup2(&actions, standardStreams, 0)
            posix_spawn_file_actions_adddup2(&actions, standardStreams, 1)
        }
        pid = try TestChild.spawn(path, arguments, environment: env, actions: &actions)
    }

    /// The daemon's executable could not be started: its path and errno's words. Its code is
    /// `spawnFailed`, with the details `path` and `errno`.
    public struct SpawnError: CodedError {
        /// What kind of failure it is.
        public typealias Code = ErrorKind<SpawnError>

        let path: String
        let errno: Int32

        init(path: String, errno: Int32) {
            self.path = path
            self.errno = errno
        }

        /// `spawnFailed`.
        public var code: Code { .spawnFailed }
        /// The path, and errno's words.
        public var message: String { "cannot spawn \(path): \(String(cString: strerror(errno)))" }
        /// The details `path` and `errno`.
        public var details: [ErrorDetail] { [ErrorDetail("path", path), ErrorDetail("errno", "\(errno)")] }
    }

    /// Sends `signal`.
    public func signal(_ signal: Int32) {
        if exitStatus == nil { kill(pid, signal) }
    }

    /// Waits up to `timeout` for the process to exit; returns its wait status, or nil.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                exitStatus = status
                return status
            }
            usleep(5_000)
        }
        return nil
    }

    /// Whether the process exited normally with `code`.
    public func exited(with code: Int32) -> Bool {
        guard let status = exitStatus else { return false }
        return (status & 0x7f) == 0 && ((status >> 8) & 0xff) == code
    }

    /// The process's user+system CPU time in clock ticks (from /proc).
    public func cpuTicks() -> Int? {
        guard let fields = Self.statFields(of: pid) else { return nil }
        // After the command: state(0) ppid(1) ... utime(11) stime(12).
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// The fields of `/proc/PID/stat` after the command's closing parenthesis (the command may
    /// hold spaces and parentheses): state at 0, ppid 1, session 3, utime 11, nice 16; nil once
    /// the process is gone.
    public static func statFields(of pid: pid_t) -> [Substring]? {
        guard let text = readFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// Context switches (voluntary and involuntary) of all the process's threads so far, from
    /// `/proc/PID/task/TID/status`: a sleeping thread adds none, so each is a wake-up (or a
    /// preemption while it ran), as the bench's idle row counts them; nil once it is gone.
    public func contextSwitches() -> Int? { Self.contextSwitches(of: pid) }

    /// ``contextSwitches()`` of any process `pid`.
    public static func contextSwitches(of pid: pid_t) -> Int? {
        contextSwitchesByThread(of: pid).map { $0.values.reduce(0, +) }
    }

    /// Each thread's context switches so far, by thread id; nil once the process is gone.
    public func contextSwitchesByThread() -> [Int: Int]? { Self.contextSwitchesByThread(of: pid) }

    /// ``contextSwitchesByThread()`` of any process `pid`.
    public static func contextSwitchesByThread(of pid: pid_t) -> [Int: Int]? {
        guard let tasks = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(tasks) }
        var threads: [Int: Int] = [:]
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let tid = Int(name), let status = readFile("/proc/\(pid)/task/\(name)/status") else { continue }
            var switches = 0
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
            threads[tid] = switches
        }
        return threads
    }

    /// The wake-ups between two looks of ``contextSwitchesByThread()``: what each thread of the
    /// later look did since the earlier one (all of it for a thread that is new). A thread that
    /// ended meanwhile is left out: a sum over all threads would go down by its count.
    public static func wakeUps(from earlier: [Int: Int], to later: [Int: Int]) -> Int {
        later.reduce(0) { $0 + $1.value - (earlier[$1.key] ?? 0) }
    }

    /// The process's resident memory in bytes (`VmRSS` of /proc/PID/status), nil once it is gone.
    public func residentBytes() -> Int? {
        guard let text = readFile("/proc/\(pid)/status"),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
        return kilobytes * 1024
    }

    /// SIGTERM, then SIGKILL if it lingers.
    public func stop() {
        guard exitStatus == nil else { return }
        signal(SIGTERM)
        if waitForExit(timeout: .seconds(5)) == nil {
            signal(SIGKILL)
            waitForExit(timeout: .seconds(5))
        }
    }

    deinit { stop() }
}

/// Reads a small file whole.
public func readFile(_ path: String) -> String? {
    WholeFile.read(path)
}

/// Writes `text` to `path` (made with `mode` when new, else truncated), the ordinary way, for a
/// test's own setup; false when it cannot.
@discardableResult
public func writeFile(_ text: String, to path: String, mode: mode_t = 0o644) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
}

/// Reads a file whole as bytes (a store, a binary, `/proc/PID/environ`), or nil when it cannot
/// be read.
public func readFileBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rbe") else { return nil } // e: close-on-exec, as forks run beside
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        guard count > 0 else { break }
        bytes += chunk[..<count]
    }
    return ferror(file) == 0 ? bytes : nil
}

/// Polls `condition` every 5 ms until it holds or `timeout` passes. The bound only ends a wait
/// for what never comes, so it is one no stall of a loaded 2-core machine reaches.
public func eventually(
    timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) -> Bool {
    requireOwnThread("eventually", sourceLocation: sourceLocation)
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// Whether `condition` becomes true within `timeout`, asked again every `interval`: the async
/// form of ``eventually(timeout:sourceLocation:_:)``, for a condition that calls a daemon. A condition that
/// throws counts as false.
public func eventuallyAsync(
    timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(5), _ condition: () async throws -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? await condition()) == true { return true }
        try? await Task.sleep(for: interval)
    }
    return (try? await condition()) == true
}

extension ErrorKind where Domain == DaemonProcess.SpawnError {
    /// `posix_spawn` refused the program; the details `path` and `errno` say which and why.
    public static var spawnFailed: Self { Self("spawnFailed") }
}
