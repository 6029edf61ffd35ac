#if canImport(Glibc)
import Glibc
#endif

/// What `/proc` says about a child, without reaping it (libuv reaps each child by its pid;
/// a `waitpid` here would steal that exit).
enum ProcessState {
    /// True while `pid` runs: false once it is gone or a zombie (dead, not reaped yet).
    static func isRunning(_ pid: Int32) -> Bool {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return false }
        // "pid (comm) S …": the state follows the last ')', which comm itself may contain.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")), close + 2 < count else { return false }
        let state = buffer[close + 2]
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
    }
}
