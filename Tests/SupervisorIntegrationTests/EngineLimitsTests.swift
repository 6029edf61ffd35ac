import Glibc
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisorClient
import VerticalsTesting
@testable import VerticalsSupervisor

extension EngineProcessTests {
    /// Limits applied between fork and exec, and a limit kill told apart from a crash.
    @Suite("resource limits", .blocking)
    struct Limits {
        static func once(_ name: String, _ script: String, _ limits: ResourceLimits) -> ServiceSpec {
            var spec = ServiceSpec.script(name, script)
            spec.limits = limits
            spec.restart = .never
            return spec
        }

        static let memoryCgroup = Cgroups().memory != nil

        @Test func rlimitsAndNiceness_areTheServicesOwn() async throws {
            let spec = Self.once(
                "limited",
                "echo \"nofile=$(ulimit -n) data=$(ulimit -d) core=$(ulimit -c) cpu=$(ulimit -t) nice=$(nice)\"",
                ResourceLimits(openFiles: 100, dataBytes: 512 << 20, coreBytes: 0, cpuSeconds: 60, nice: 7))
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("limited", .stopped, count: 1)
            let log = try #require(readFile(harness.run.log(for: "limited")))
            #expect(log.contains("stdout nofile=100 data=524288 core=0 cpu=60 nice=7"), "\(log)")
            await harness.shutdown()
        }

        @Test(.enabled(if: memoryCgroup, "no usable memory cgroup (v2 delegated, or v1 as root) on this host"))
        func aServiceOverItsMemoryLimit_isKilledByTheOOMKiller_andReportedSo() async throws {
            // The shell holds 300 MB of output in a variable; its cgroup allows 32 MiB.
            let spec = Self.once(
                "hungry", "x=$(head -c 300000000 /dev/zero | tr '\\0' a); echo survived ${#x}",
                ResourceLimits(memoryBytes: 32 << 20))
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("hungry", .failed, timeout: .seconds(30))
            let status = try await harness.status("hungry")
            // Proven from the cgroup's OOM counter, and the signal is the OOM killer's. The counter
            // may pass 1: the script is a pipeline (shell, subshell, head, tr), and under load the
            // killer has been seen to take two of them before the service's shell died.
            #expect(status.lastExit.hasPrefix("limit: memory 32 MiB exceeded"), "\(status.lastExit)")
            let kills = status.lastExit.split(separator: "oom_kill ").dropFirst().first?.prefix { $0.isNumber }
            #expect((kills.flatMap { Int($0) } ?? 0) >= 1 && status.lastExit.contains("SIGKILL"), "\(status.lastExit)")
            let log = try #require(readFile(harness.run.log(for: "hungry")))
            #expect(!log.contains("stdout survived"))
            await harness.shutdown()
        }

        @Test(.enabled(if: memoryCgroup && Cgroups().cpu != nil, "no usable memory and cpu cgroups on this host"))
        func memoryAndCPULimits_putTheServiceInItsOwnCgroups_withThoseLimits() async throws {
            var spec = Self.once(
                "capped", "cat /proc/$$/cgroup; exec sleep 30",
                ResourceLimits(memoryBytes: 64 << 20, cpuPercent: 20, cpuWeight: 20))
            spec.restart = .always
            let harness = try EngineHarness([spec])
            try await harness.start()
            let log = harness.run.log(for: "capped")
            #expect(eventually { (readFile(log) ?? "").contains(":memory:") })
            let lines = (readFile(log) ?? "").split(separator: "\n")
            let path = { (controller: String) -> String? in
                lines.first { $0.contains(":\(controller):") }.flatMap {
                    $0.split(separator: ":").last.map(String.init)
                }
            }
            let memory = try #require(path("memory"))
            let cpu = try #require(path("cpu"))
            #expect(memory.hasSuffix("-capped") && cpu.hasSuffix("-capped"), "\(memory) \(cpu)")
            let cgroups = Cgroups()
            if let place = cgroups.memory, !place.isV2 {
                let folder = "/sys/fs/cgroup/memory" + memory
                #expect(readFile("\(folder)/memory.limit_in_bytes") == "\(64 << 20)\n")
            }
            if let place = cgroups.cpu, !place.isV2 {
                #expect(readFile("/sys/fs/cgroup/cpu\(cpu)/cpu.cfs_quota_us") == "20000\n")
                #expect(readFile("/sys/fs/cgroup/cpu\(cpu)/cpu.shares") == "\(Cgroups.shares(weight: 20))\n")
            }
            await harness.shutdown()
            // Closing the engine removes its cgroups once their processes are gone.
            #expect(access("/sys/fs/cgroup/memory" + memory, F_OK) != 0)
        }

        /// A fork bomb stays inside its vertical: past `limits.tasks` its forks fail, and the
        /// kernel counts them in its own pids cgroup.
        @Test(.enabled(if: Cgroups().pids != nil, "no usable pids cgroup (v2 delegated, or v1 as root) on this host"))
        func aServiceForkingPastItsTasksLimit_isStoppedAtTheLimit_inItsOwnCgroup() async throws {
            var spec = Self.once(
                "forky", "i=0; while [ $i -lt 40 ]; do sleep 60 & i=$((i+1)); done; exec sleep 60",
                ResourceLimits(tasks: 8))
            spec.restart = .always
            let harness = try EngineHarness([spec])
            try await harness.start()
            let place = try #require(Cgroups().pids)
            var name: String?
            _ = eventually {
                name = FolderEntries.names(in: place.parent).first {
                    $0.hasPrefix("vt-\(getpid())-") && $0.hasSuffix("-forky")
                }
                return name != nil
            }
            let folder = "\(place.parent)/\(try #require(name, "the engine made no pids cgroup for forky"))"
            #expect(readFile("\(folder)/pids.max") == "8\n")
            let refused = eventually {
                let events = readFile("\(folder)/pids.events") ?? ""
                let count = events.split(separator: "\n").first { $0.hasPrefix("max ") }.flatMap {
                    Int($0.dropFirst(4))
                }
                return (count ?? 0) > 0
            }
            #expect(refused, "no fork was refused at the limit")
            let procs = (readFile("\(folder)/cgroup.procs") ?? "").split(separator: "\n").count
            #expect(procs <= 8, "\(procs) processes in a cgroup of 8 tasks")
            await harness.shutdown()
            #expect(access(folder, F_OK) != 0, "the cgroup is removed with the engine")
        }

        @Test func aServiceOverItsCPUTime_isStoppedBySIGXCPU_andReportedSo() async throws {
            let spec = Self.once("spinner", "while :; do :; done", ResourceLimits(cpuSeconds: 1))
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("spinner", .failed, timeout: .seconds(30))
            let status = try await harness.status("spinner")
            #expect(
                status.lastExit == "limit: cpu_seconds 1 used up; killed by signal 24 (SIGXCPU)", "\(status.lastExit)")
            await harness.shutdown()
        }
    }
}
