#if canImport(Glibc)
import Glibc
#endif
import VerticalsClient

/// What `<run>/pids/<name>` says about a running child: its pid, its process group and its
/// start time (`/proc/<pid>/stat` field 22, clock ticks since boot), so that the next `up`
/// can kill what a crashed supervisor left behind without killing a stranger that got the
/// same pid later.
package struct PidRecord: Equatable {
    package var pid: Int32
    package var processGroup: Int32
    package var startTime: UInt64

    /// The record of live process `pid`, or nil when it is gone.
    package static func of(pid: Int32, processGroup: Int32) -> PidRecord? {
        startTime(of: pid).map { PidRecord(pid: pid, processGroup: processGroup, startTime: $0) }
    }

    /// Field 22 of `/proc/<pid>/stat`; nil when the process is gone or a zombie (nothing to kill).
    package static func startTime(of pid: Int32) -> UInt64? {
        guard let text = readSmallFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // After "(comm)": state is field 3, so field 22 is the 20th.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z" else { return nil }
        return UInt64(fields[19])
    }

    /// The line written to the file: `pid pgid starttime`.
    package var line: String { "\(pid) \(processGroup) \(startTime)\n" }

    package init(pid: Int32, processGroup: Int32, startTime: UInt64) {
        self.pid = pid
        self.processGroup = processGroup
        self.startTime = startTime
    }

    package init?(line: String) {
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count == 3, let pid = Int32(parts[0]), let group = Int32(parts[1]), let start = UInt64(parts[2]),
            pid > 1, group > 1
        else { return nil }
        self.init(pid: pid, processGroup: group, startTime: start)
    }

    package func write(to path: String) {
        try? ReplacedFile.write(Array(line.utf8), to: path, mode: 0o640)
    }

    /// Kills what a record left by an earlier supervisor still names; returns what it did, for the log.
    ///
    /// - The main process is killed only if its start time still matches (else the pid was reused).
    /// - The process group is killed when its leader is gone (grandchildren hold the pgid, and
    ///   Linux never hands out a pid still used as a pgid) or was ours; never when the leader's
    ///   pid now belongs to another process, which may lead a group of its own.
    package func killLeftovers() -> String? {
        let current = Self.startTime(of: pid)
        if current == startTime {
            kill(-processGroup, SIGKILL)
            kill(pid, SIGKILL)
            return "killed pid \(pid) and its process group \(processGroup), left by an earlier supervisor"
        }
        if current == nil, kill(-processGroup, SIGKILL) == 0 {
            return "killed process group \(processGroup), left by an earlier supervisor"
        }
        return nil // gone for good, or the pid now belongs to another process: not ours
    }

    /// The text of a small file (a `/proc` entry, a pid file), or nil when it cannot be read.
    package static func readSmallFile(_ path: String) -> String? {
        WholeFile.read(path)
    }
}
