import Glibc

/// What `/proc` says about a child, without reaping it (libuv reaps each child by its pid;
/// a `waitpid` here would steal that exit).
package enum ProcessState {
    /// True while `pid` runs: false once it is gone or a zombie (dead, not reaped yet).
    package static func isRunning(_ pid: Int32) -> Bool {
        // "pid (comm) S …": the state follows the last ')', which comm itself may contain.
        guard let stat = PidRecord.readSmallFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else {
            return false
        }
        let state = stat[stat.index(after: close)...].dropFirst().first
        return state != nil && state != "Z" && state != "X"
    }

    /// The resident memory of `pid` in bytes (`/proc/<pid>/statm`'s resident pages), or nil
    /// once it is gone.
    package static func residentBytes(_ pid: Int32) -> Int? {
        guard let statm = PidRecord.readSmallFile("/proc/\(pid)/statm") else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
