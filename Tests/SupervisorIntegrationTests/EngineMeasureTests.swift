import Glibc
import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsTesting

extension EngineProcessTests {
    /// Numbers to read, not a timed test: runs only with `VT_MEASURE=1`.
    ///
    ///     VT_MEASURE=1 swift test --filter EngineProcessTests.Measure
    @Suite("measurements", .blocking, .enabled(if: getenv("VT_MEASURE") != nil))
    struct Measure {
        @Test func killToReady_median_over20Kills() async throws {
            var spec = ServiceSpec.testd("echo")
            // The supervisor's own latency: no backoff to wait out, a budget that never runs out.
            spec.backoff = .every(.zero)
            spec.budget = RestartBudget(maxRestarts: 1000, window: .seconds(1))
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("echo", .ready)
            var samples: [Duration] = []
            for round in 1...20 {
                let pid = try #require(try await harness.status("echo").pid)
                let killedAt = ContinuousClock.now
                kill(Int32(pid), SIGKILL)
                let ready = try await harness.waitFor("echo", .ready, count: round + 1)
                samples.append(ready.at - killedAt)
                try await Task.sleep(for: .milliseconds(50))
            }
            samples.sort()
            let median = (samples[9] + samples[10]) / 2
            print(
                "kill -9 → replacement READY=1 over 20 kills: median \(median), min \(samples[0]), max \(samples[19])")
            await harness.shutdown()
        }

        @Test func idleLoop_withFiveServices_wakesNever() async throws {
            let harness = try EngineHarness(
                ["ledger", "catalog", "mailer", "archive", "orders"].map {
                    ServiceSpec.testd($0)
                })
            try await harness.start()
            for name in ["ledger", "catalog", "mailer", "archive", "orders"] {
                try await harness.waitFor(name, .ready)
            }
            try await Task.sleep(for: .seconds(1))
            let before = try #require(Self.loopThread("engine-test"))
            try await Task.sleep(for: .seconds(10))
            let after = try #require(Self.loopThread("engine-test"))
            print(
                "idle engine loop thread over 10 s with 5 services: \(after.switches - before.switches) wake-ups, "
                    + "\(after.ticks - before.ticks) CPU ticks")
            await harness.shutdown()
        }

        /// Voluntary context switches and CPU ticks of this process's thread named `name`.
        static func loopThread(_ name: String) -> (switches: Int, ticks: Int)? {
            guard let tasks = opendir("/proc/self/task") else { return nil }
            defer { closedir(tasks) }
            while let entry = readdir(tasks) {
                let tid = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard Int(tid) != nil, readFile("/proc/self/task/\(tid)/comm")?.hasPrefix(name) == true,
                    let status = readFile("/proc/self/task/\(tid)/status"),
                    let stat = readFile("/proc/self/task/\(tid)/stat"), let close = stat.lastIndex(of: ")")
                else { continue }
                let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
                let switches = line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? -1
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return (switches, (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0))
            }
            return nil
        }
    }
}
