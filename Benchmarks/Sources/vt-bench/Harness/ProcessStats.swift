import BenchWindow
import Foundation

/// What /proc says of a process: its memory, CPU time consumed and context switches.
enum ProcessStats {
    /// What a process's memory costs, in KiB, from `/proc/PID/smaps_rollup` and `/proc/PID/smaps`.
    ///
    /// Private dirty memory is what the process alone holds and the kernel cannot drop without
    /// swap: anonymous pages (heap, stacks, the runtime's metadata) and file pages it wrote. PSS
    /// shares each page among the processes mapping it. RSS and resident text count clean file
    /// pages too, which the page cache shares and the kernel reclaims at will: information only.
    struct Memory {
        /// `Private_Dirty`: what is judged.
        var privateDirty: Double
        /// `Pss`: the process's share of every page it maps.
        var pss: Double
        /// `Rss`, for information.
        var rss: Double
        /// Resident pages of executable mappings (the program's and libraries' text), for information.
        var residentText: Double
    }

    /// Writes every dirty file page back to disk (`sync`), so that a program's text counts as
    /// private dirty in none of the readings that follow. A binary linked moments ago, as `make
    /// bench` links it, is dirty in the page cache until writeback (up to 30 s), and every process
    /// mapping it shows those pages as `Private_Dirty`: megabytes that vanish between two readings.
    static func cleanFilePages() {
        sync()
    }

    /// `pid`'s memory now, or nil when the process is gone.
    static func memory(_ pid: Int32) -> Memory? {
        guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8),
            let smaps = try? String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8)
        else { return nil }
        func kib(_ line: Substring) -> Double {
            Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        func field(_ name: String) -> Double {
            rollup.split(separator: "\n").first { $0.hasPrefix("\(name):") }.map(kib) ?? 0
        }
        var text = 0.0
        var executable = false
        for line in smaps.split(separator: "\n") {
            let first = line.prefix { $0 != " " }
            if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) { // a mapping's line
                executable = line.split(separator: " ").dropFirst().first?.contains("x") ?? false
            } else if executable, line.hasPrefix("Rss:") {
                text += kib(line)
            }
        }
        return Memory(privateDirty: field("Private_Dirty"), pss: field("Pss"), rss: field("Rss"), residentText: text)
    }

    /// User + system CPU seconds consumed so far (`utime` + `stime`), or nil when the process is gone.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        CPUTime.seconds(of: pid)
    }

    /// What the scheduler and the page tables say of a process over all its threads: CPU time
    /// run and time spent runnable but waiting for a CPU (`/proc/PID/task/TID/schedstat`, in ns),
    /// page faults (`/proc/PID/stat`) and its threads.
    struct Scheduling {
        var runNanoseconds: Double
        var waitNanoseconds: Double
        var minorFaults: Double
        var majorFaults: Double
        var threads: Int

        /// What happened between `earlier` and this reading (threads: those added).
        func since(_ earlier: Scheduling) -> Scheduling {
            Scheduling(
                runNanoseconds: runNanoseconds - earlier.runNanoseconds,
                waitNanoseconds: waitNanoseconds - earlier.waitNanoseconds,
                minorFaults: minorFaults - earlier.minorFaults, majorFaults: majorFaults - earlier.majorFaults,
                threads: threads - earlier.threads)
        }
    }

    /// `pid`'s ``Scheduling`` now, or nil when the process is gone.
    static func scheduling(_ pid: Int32) -> Scheduling? {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": minflt is field 10, majflt field 12.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 10, let minor = Double(fields[7]), let major = Double(fields[9]) else { return nil }
        var run = 0.0
        var wait = 0.0
        for thread in threads {
            guard let line = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/schedstat", encoding: .utf8)
            else { continue } // the thread ended meanwhile
            let numbers = line.split(separator: " ").compactMap {
                Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if numbers.count >= 2 {
                run += numbers[0]
                wait += numbers[1]
            }
        }
        return Scheduling(
            runNanoseconds: run, waitNanoseconds: wait, minorFaults: minor, majorFaults: major, threads: threads.count)
    }

    /// Context switches of each thread of the process so far (voluntary + involuntary, from
    /// `/proc/PID/task/TID/status`), by thread id; nil when the process is gone. A sleeping
    /// thread adds none: each one is a wake-up (or a preemption while it ran).
    static func contextSwitchesByThread(_ pid: Int32) -> [String: Double]? {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
            return nil
        }
        var counts: [String: Double] = [:]
        for thread in threads {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)
            else { continue } // the thread ended meanwhile
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                counts[thread, default: 0] +=
                    Double(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
            }
        }
        return counts
    }

    /// The context switches between two ``contextSwitchesByThread(_:)`` readings: each thread's
    /// growth (all of a thread born between them), and 1 for each thread that ended between
    /// them (its own count left with it; ending took at least that wake-up).
    static func contextSwitches(from before: [String: Double], to after: [String: Double]) -> Double {
        let grown = after.reduce(0.0) { $0 + $1.value - (before[$1.key] ?? 0) }
        let ended = before.keys.filter { after[$0] == nil }.count
        return grown + Double(ended)
    }
}
