#if canImport(Glibc)
import Glibc
#endif
import VerticalsEventLoop

// Resource limits: what vt-exec is told to apply between fork and exec, and how an exit
// caused by a limit is told apart. All on the loop thread.
extension SupervisorEngine {
    /// What every process of a service gets: a session of its own (a stop signals the whole
    /// group) and SIGTERM when the supervisor's loop thread ends. Without anything more, the
    /// engine starts the process in place, not through vt-exec (``startsInPlace(_:)``).
    static let sessionOptions = ["--setsid", "--pdeathsig", "SIGTERM"]
    /// The parent death signal of ``sessionOptions``.
    static let parentDeathSignal = SIGTERM

    /// vt-exec's options for `unit`: a session, PDEATHSIG, rlimits, niceness, cgroups.
    /// Limits that cannot be applied (no usable cgroup) are noted in the service's log.
    func execOptions(for unit: ServiceUnit) -> [String] {
        let limits = unit.spec.limits
        var options = Self.sessionOptions
        if let count = limits.openFiles { options += ["--rlimit", "NOFILE=\(count)"] }
        if let bytes = limits.dataBytes { options += ["--rlimit", "DATA=\(bytes)"] }
        if let bytes = limits.coreBytes { options += ["--rlimit", "CORE=\(bytes)"] }
        // SIGXCPU at the soft limit; the hard limit (SIGKILL) a little later, so the first
        // signal the service sees names the cause.
        if let seconds = limits.cpuSeconds { options += ["--rlimit", "CPU=\(seconds):\(seconds + 2)"] }
        if let nice = limits.nice { options += ["--nice", String(nice)] }
        if limits.needsCgroup {
            let cgroups = self.cgroups
            let (folders, notes) = cgroups.prepare(service: unit.spec.name, limits: limits)
            for folder in folders { options += ["--cgroup", folder] }
            for note in notes where !unit.limitNotes.contains(note) {
                unit.limitNotes.insert(note)
                unit.log.note(note)
                logger.warning("\(unit.spec.name): \(note)")
            }
            unit.oomKillsAtStart = cgroups.oomKills(service: unit.spec.name)
        }
        return options
    }

    /// Why the process ended when a limit ended it: the cgroup's OOM counter went up, or the
    /// kernel's CPU-time signal. Nil for any other exit.
    func limitReason(_ unit: ServiceUnit, _ status: ExitStatus) -> String? {
        let limits = unit.spec.limits
        if let bytes = limits.memoryBytes, let before = unit.oomKillsAtStart,
            let after = cgroups.oomKills(service: unit.spec.name), after > before
        {
            return "limit: memory \(Self.sizeText(bytes)) exceeded, killed by the kernel's OOM killer "
                + "(oom_kill \(after) in its cgroup); \(Self.describe(status))"
        }
        // Only the kernel's RLIMIT_CPU check sends SIGXCPU in practice.
        if let seconds = limits.cpuSeconds, status.signal == SIGXCPU {
            return "limit: cpu_seconds \(seconds) used up; \(Self.describe(status))"
        }
        return nil
    }

    /// "32 MiB", "1.5 GiB", "4096 B".
    static func sizeText(_ bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift {
            let value = Double(bytes) / Double(1 << shift)
            return value == value.rounded() ? "\(Int(value)) \(unit)" : "\((value * 10).rounded() / 10) \(unit)"
        }
        return "\(bytes) B"
    }
}
