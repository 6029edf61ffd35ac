#if canImport(Glibc)
import Glibc
#endif
import IOInterface

/// A service's log file, `<run>/logs/<name>.log`: every line of its stdout and stderr, and
/// the supervisor's own notes about it, stamped `RFC 3339 UTC` + stream:
///
/// ```
/// 2026-11-23T09:30:00.123456Z stdout serving identity on inherited fd 3
/// 2026-11-23T09:30:01.5Z supervisor exited with code 1; restarting in 100 ms
/// ```
///
/// When a line would take the file past `maxBytes`, the file becomes `<name>.log.1` (replacing
/// the previous one) and a new file starts. Written synchronously on the loop thread: lines are
/// small and a local append does not block in practice. Loop-confined.
final class ServiceLog {
    let path: String
    var maxBytes: Int
    private var fd: Int32 = -1
    private var size = 0
    /// The unfinished last line of each stream (1, 2).
    private var partial: [Int32: [UInt8]] = [:]
    /// A line longer than this is cut and written in pieces.
    private static let maxLineBytes = 16_384

    init(path: String, maxBytes: Int) {
        self.path = path
        self.maxBytes = maxBytes
        open()
    }

    /// Appends a chunk of `stream` (1 stdout, 2 stderr); complete lines are written now.
    func append(stream: Int32, _ bytes: [UInt8]) {
        var pending = partial[stream, default: []]
        pending.append(contentsOf: bytes)
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            write(line: pending[start..<newline], stream: Self.name(of: stream))
            start = newline + 1
        }
        pending.removeFirst(start)
        while pending.count > Self.maxLineBytes {
            write(line: pending[..<Self.maxLineBytes], stream: Self.name(of: stream))
            pending.removeFirst(Self.maxLineBytes)
        }
        partial[stream] = pending
    }

    /// Writes what is left of unfinished lines (the process ended).
    func flush() {
        for (stream, pending) in partial.sorted(by: { $0.key < $1.key }) where !pending.isEmpty {
            write(line: pending[...], stream: Self.name(of: stream))
        }
        partial.removeAll()
    }

    /// Writes a note of the supervisor's about this service.
    func note(_ text: String) {
        write(line: Array(text.utf8)[...], stream: "supervisor")
    }

    func close() {
        flush()
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func write(line: ArraySlice<UInt8>, stream: String) {
        var bytes = Array("\(Self.now()) \(stream) ".utf8)
        bytes.append(contentsOf: line)
        bytes.append(UInt8(ascii: "\n"))
        if size > 0 && size + bytes.count > maxBytes { rotate() }
        guard fd >= 0 else { return }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written > 0 { size += written }
    }

    private func rotate() {
        if fd >= 0 { Glibc.close(fd) }
        rename(path, path + ".1")
        open()
    }

    private func open() {
        fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        var info = stat()
        size = fd >= 0 && fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    private static func name(of stream: Int32) -> String {
        stream == 2 ? "stderr" : "stdout"
    }

    /// The wall clock as RFC 3339 UTC with microseconds.
    static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return RFC3339.format(Timestamp(microsecondsSinceEpoch: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec / 1000)))
    }
}
