#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import VerticalsSupervisorClient

/// Per-service cgroups for the `memory`, `cpu`, `cpu_weight` and `tasks` limits, beside the supervisor's own cgroup.
///
/// Each controller is taken from cgroup v2 where the supervisor's v2 cgroup is writable and
/// delegates it (`cgroup.subtree_control` lists it), else from its v1 hierarchy where that is
/// writable (as root), else not at all: the limit is skipped and the reason noted. A service's
/// folder is `<own cgroup>/vt-<supervisor pid>-<engine>-<name>`, made before its first start,
/// kept across restarts (so the OOM counter spans them) and removed on close; `vt-exec` joins
/// it before exec.
///
/// This host is a v1/v2 hybrid whose v2 tree has no memory controller: memory comes from v1.
final class Cgroups {
    /// One controller's place: the folder the service cgroups go in, and its version.
    struct Place: Equatable {
        let parent: String
        let isV2: Bool
    }

    let memory: Place?
    let cpu: Place?
    let pids: Place?
    /// Why a controller is missing, for the note when a limit cannot be applied.
    let missing: [String: String]
    private let prefix: String
    private var made: Set<String> = []

    /// Numbers the engines of this process, so that two never share a folder.
    private static let engines = Atomic<Int>(0)

    /// Finds where each controller can be used. Loop-confined, like the engine that owns it.
    init() {
        prefix = "vt-\(getpid())-\(Cgroups.engines.wrappingAdd(1, ordering: .relaxed).newValue)-"
        let own = Self.ownCgroups()
        var missing: [String: String] = [:]
        func place(_ controller: String, v1Mount: String, v1Keys: [String]) -> Place? {
            let v2Mounts = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"]
            if let path = own[""],
                let mount = v2Mounts.first(where: { access("\($0)/cgroup.controllers", R_OK) == 0 })
            {
                let directory = mount + (path == "/" ? "" : path)
                let delegated = (PidRecord.readSmallFile("\(directory)/cgroup.subtree_control") ?? "")
                    .split(whereSeparator: { $0 == " " || $0 == "\n" }).contains { $0 == controller }
                if delegated && access(directory, W_OK) == 0 { return Place(parent: directory, isV2: true) }
            }
            if let path = v1Keys.lazy.compactMap({ own[$0] }).first, access(v1Mount, F_OK) == 0 {
                let directory = v1Mount + (path == "/" ? "" : path)
                if access(directory, W_OK) == 0 { return Place(parent: directory, isV2: false) }
                missing[controller] = "cgroup v1 \(controller) at \(directory) is not writable (not root?)"
                return nil
            }
            missing[controller] =
                "no cgroup v2 subtree with the \(controller) controller delegated, and no cgroup v1 \(controller)"
            return nil
        }
        memory = place("memory", v1Mount: "/sys/fs/cgroup/memory", v1Keys: ["memory"])
        cpu = place("cpu", v1Mount: "/sys/fs/cgroup/cpu", v1Keys: ["cpu", "cpu,cpuacct", "cpuacct,cpu"])
        pids = place("pids", v1Mount: "/sys/fs/cgroup/pids", v1Keys: ["pids"])
        self.missing = missing
    }

    /// The folders `service` joins for `limits`, made and written now, and a note for each
    /// limit that could not be applied.
    func prepare(service: String, limits: ResourceLimits) -> (folders: [String], notes: [String]) {
        var folders: [String] = []
        var notes: [String] = []
        /// Makes `service`'s folder in `controller`'s place and lets `write` set the limit there;
        /// the folder joins the list, or a note says why `what` was skipped.
        func apply(
            _ what: String, controller: String, _ place: Place?, _ write: (_ folder: String, _ isV2: Bool) -> Bool
        ) {
            guard let place else {
                notes.append("\(what) skipped: \(missing[controller] ?? "no \(controller) cgroup")")
                return
            }
            let folder = "\(place.parent)/\(prefix)\(service)"
            guard make(folder), write(folder, place.isV2) else {
                notes.append("\(what) skipped: cannot set it in \(folder): \(Self.lastError())")
                return
            }
            if !folders.contains(folder) { folders.append(folder) }
        }
        if let bytes = limits.memoryBytes {
            apply("memory limit", controller: "memory", memory) { folder, isV2 in
                isV2
                    ? write("\(bytes)", to: "\(folder)/memory.max")
                        && (access("\(folder)/memory.swap.max", F_OK) != 0
                            || write("0", to: "\(folder)/memory.swap.max"))
                    : write("\(bytes)", to: "\(folder)/memory.limit_in_bytes")
                        && (access("\(folder)/memory.memsw.limit_in_bytes", F_OK) != 0
                            || write("\(bytes)", to: "\(folder)/memory.memsw.limit_in_bytes"))
            }
        }
        if let percent = limits.cpuPercent {
            let quota = percent * 1_000
            apply("cpu limit", controller: "cpu", cpu) { folder, isV2 in
                isV2
                    ? write("\(quota) 100000", to: "\(folder)/cpu.max")
                    : write("100000", to: "\(folder)/cpu.cfs_period_us")
                        && write("\(quota)", to: "\(folder)/cpu.cfs_quota_us")
            }
        }
        if let weight = limits.cpuWeight {
            apply("cpu weight", controller: "cpu", cpu) { folder, isV2 in
                isV2
                    ? write("\(weight)", to: "\(folder)/cpu.weight")
                    : write("\(Self.shares(weight: weight))", to: "\(folder)/cpu.shares")
            }
        }
        if let tasks = limits.tasks {
            apply("tasks limit", controller: "pids", pids) { folder, _ in write("\(tasks)", to: "\(folder)/pids.max") }
        }
        return (folders, notes)
    }

    /// cgroup v1's `cpu.shares` for a v2 `cpu.weight`, as systemd maps `CPUWeight=` (100 → 1024,
    /// the default of both), at least the kernel's 2.
    static func shares(weight: Int) -> Int {
        max(2, weight * 1024 / 100)
    }

    /// How many times the kernel's OOM killer has killed in `service`'s memory cgroup.
    func oomKills(service: String) -> Int? {
        guard let place = memory else { return nil }
        let folder = "\(place.parent)/\(prefix)\(service)"
        guard made.contains(folder) else { return nil }
        let file = place.isV2 ? "memory.events" : "memory.oom_control"
        guard let text = PidRecord.readSmallFile("\(folder)/\(file)") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("oom_kill ") {
            return Int(line.dropFirst("oom_kill ".count))
        }
        return nil
    }

    /// Kills every process in `service`'s cgroups, those that left its process group or session
    /// included (systemd's `KillMode=control-group`): with `cgroup.kill` where cgroup v2 has it,
    /// else by `SIGKILL` to each pid `cgroup.procs` lists, a few rounds for ones forked meanwhile.
    /// Returns how many pids were signalled one by one.
    @discardableResult
    func killAll(service: String) -> Int {
        var signalled = 0
        for folder in made where folder.hasSuffix("/\(prefix)\(service)") {
            if access("\(folder)/cgroup.kill", F_OK) == 0 && write("1", to: "\(folder)/cgroup.kill") { continue }
            for _ in 0..<8 {
                let pids = Self.processes(in: folder)
                if pids.isEmpty { break }
                for pid in pids where kill(pid, SIGKILL) == 0 { signalled += 1 }
            }
        }
        return signalled
    }

    /// Kills what is left in the cgroups a supervisor that is gone (it crashed, or was killed)
    /// made for one of `services`, and removes them; a note for each. Its pid records name only
    /// process groups: a process that left its group is found by its cgroup. A folder is swept
    /// only when the pid in its name (`vt-<pid>-<engine>-<service>`) runs no process at all.
    func sweepLeftovers(services: Set<String>) -> [String] {
        var notes: [String] = []
        for parent in Set([memory, cpu, pids].compactMap { $0?.parent }) {
            for entry in FolderEntries.names(in: parent) where entry.hasPrefix("vt-") {
                let parts = entry.dropFirst(3).split(separator: "-", maxSplits: 2).map(String.init)
                guard parts.count == 3, let pid = Int32(parts[0]), pid > 1, pid != getpid(),
                    services.contains(parts[2]),
                    kill(pid, 0) != 0 && errno == ESRCH
                else { continue }
                let folder = "\(parent)/\(entry)"
                var killed: Set<Int32> = []
                // A killed process leaves cgroup.procs only once it has exited, which on a busy
                // host takes more than a few scheduling rounds; the folder cannot be removed until
                // then. Waited for as `removeAll` waits, up to a second a folder, and only as long
                // as something is left in it.
                for _ in 0..<100 {
                    let pids = Self.processes(in: folder)
                    if pids.isEmpty { break }
                    for pid in pids where kill(pid, SIGKILL) == 0 { killed.insert(pid) }
                    usleep(10_000)
                }
                rmdir(folder)
                if !killed.isEmpty {
                    notes.append(
                        "\(parts[2]): killed \(killed.count) process(es) left in \(folder) by supervisor pid \(pid)")
                }
            }
        }
        return notes
    }

    /// Removes every folder made, killing what is left in each first (call once the services are
    /// stopped). A killed process leaves `cgroup.procs` only once it has exited, and a folder
    /// with one in it cannot be removed: each is waited for, up to a second a folder.
    func removeAll() {
        for folder in made {
            for _ in 0..<100 {
                let pids = Self.processes(in: folder)
                if pids.isEmpty { break }
                for pid in pids { kill(pid, SIGKILL) }
                usleep(10_000)
            }
            rmdir(folder)
        }
        made.removeAll()
    }

    /// The pids `cgroup.procs` of `folder` lists, never this process's own.
    private static func processes(in folder: String) -> [Int32] {
        (PidRecord.readSmallFile("\(folder)/cgroup.procs") ?? "").split(separator: "\n")
            .compactMap { Int32($0) }.filter { $0 > 1 && $0 != getpid() }
    }

    private func make(_ folder: String) -> Bool {
        if made.contains(folder) { return true }
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { return false }
        made.insert(folder)
        return true
    }

    private func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return Glibc.write(fd, bytes, bytes.count) == bytes.count
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

    /// `/proc/self/cgroup` as controller list → path (`""` for the v2 line `0::/path`).
    private static func ownCgroups() -> [String: String] {
        var paths: [String: String] = [:]
        for line in (PidRecord.readSmallFile("/proc/self/cgroup") ?? "").split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            paths[String(parts[1])] = String(parts[2])
        }
        return paths
    }
}
