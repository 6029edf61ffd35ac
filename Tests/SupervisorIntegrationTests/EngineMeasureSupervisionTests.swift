import Glibc
import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests.Measure {
    /// kill -9 → replacement spawned (vt-exec exec'd; the service's own exec follows it) and →
    /// replacement READY=1, over 20 kills, for the minimal test daemon and for one that opens and
    /// migrates a store of its own before it serves, as a vertical does.
    ///
    ///     VT_MEASURE=1 swift test --filter EngineProcessTests.Measure
    @Test(arguments: [("echo", 0), ("ledger", 3)])
    func killToExecAndReady_medians_over20Kills(name: String, migrations: Int) async throws {
        var spec = ServiceSpec(name: name, executable: "vt-testd")
        spec.arguments = [name]
        if migrations > 0 { spec.environment["VT_TESTD_MIGRATIONS"] = "\(migrations)" }
        spec.backoff = .every(.zero)
        spec.budget = RestartBudget(maxRestarts: 1000, window: .seconds(1))
        let harness = try EngineHarness([spec])
        try await harness.start()
        try await harness.waitFor(name, .ready)
        var spawned: [Duration] = []
        var ready: [Duration] = []
        for round in 1...20 {
            let pid = try #require(try await harness.status(name).pid)
            let killedAt = ContinuousClock.now
            kill(Int32(pid), SIGKILL)
            let started = try await harness.waitFor(name, .starting, count: round + 1)
            let readyEvent = try await harness.waitFor(name, .ready, count: round + 1)
            spawned.append(started.at - killedAt)
            ready.append(readyEvent.at - killedAt)
            try await Task.sleep(for: .milliseconds(50))
        }
        let median = { (samples: [Duration]) in
            let sorted = samples.sorted()
            return (sorted[9] + sorted[10]) / 2
        }
        print(
            "vt-testd \(name) (\(migrations) migrations): kill -9 → replacement spawned: median \(median(spawned)); "
                + "→ READY=1: median \(median(ready))"
                + " (20 kills)")
        await harness.shutdown()
    }

    /// The same through `svc-supervisor up` as its own process (a small process to fork, unlike
    /// the test runner), timed from the daemon's own log: the wall clock at `kill`, the note
    /// written once the replacement was spawned (uv_spawn returns after vt-exec's exec), and
    /// the note of its READY=1.
    @Test func daemon_killToSpawnedAndReady_medians_over20Kills() async throws {
        let directory = TemporaryDirectory()
        let run = directory.file("run")
        let manifest = directory.file("suite.toml")
        let text = """
            [defaults]
            backoff = { initial = "1ms", max = "1ms", multiplier = 1.0 }
            budget = { restarts = 1000, window = "1s" }
            [services.echo]
            executable = "vt-testd"
            args = ["echo"]
            [services.ledger]
            executable = "vt-testd"
            args = ["ledger"]
            env = { VT_TESTD_MIGRATIONS = "3" }
            """
        let file = fopen(manifest, "w")
        fputs(text, file)
        fclose(file)
        let tag = "measure-\(UInt32.random(in: 0...UInt32.max))"
        let supervisor = try DaemonProcess(
            "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run], environment: ["VT_DAEMON_TAG": tag])
        for name in ["echo", "ledger"] {
            let log = "\(run)/logs/\(name).log"
            let readyLines = {
                (readFile(log) ?? "").split(separator: "\n").filter { $0.contains("supervisor ready after") }
            }
            #expect(eventually(timeout: .seconds(30)) { readyLines().count == 1 })
            var spawned: [Double] = []
            var ready: [Double] = []
            for round in 1...20 {
                let record = try #require(readFile("\(run)/pids/\(name)"))
                let pid = try #require(Int32(record.split(separator: " ")[0]))
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                let killedAt = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
                kill(pid, SIGKILL)
                #expect(eventually(timeout: .seconds(10)) { readyLines().count == round + 1 })
                let lines = (readFile(log) ?? "").split(separator: "\n")
                let time = { (line: Substring) -> Double in
                    Double(RFC3339.parse(String(line.split(separator: " ")[0]))?.microsecondsSinceEpoch ?? 0) / 1e6
                }
                let started = try #require(lines.last { $0.contains("supervisor started pid") })
                let readyLine = try #require(readyLines().last)
                spawned.append(time(started) - killedAt)
                ready.append(time(readyLine) - killedAt)
                try await Task.sleep(for: .milliseconds(50))
            }
            let median = { (samples: [Double]) in
                let sorted = samples.sorted()
                return String(format: "%.2f ms", (sorted[9] + sorted[10]) / 2 * 1000)
            }
            print(
                "svc-supervisor, \(name): kill -9 → replacement spawned: median \(median(spawned)); "
                    + "→ READY=1: median \(median(ready)) (20 kills)")
        }
        _ = try runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
        supervisor.waitForExit()
        for pid in EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG") { kill(pid, SIGKILL) }
    }

    /// `svc-supervisor up` as its own process with N minimal daemons: its RSS, and its
    /// context switches (wake-ups) over 30 s idle, per minute.
    @Test(arguments: [5, 50])
    func idleSupervisor_rssAndWakeUps(services: Int) async throws {
        let directory = TemporaryDirectory()
        let run = directory.file("run")
        let manifest = directory.file("suite.toml")
        let text = (1...services).map { "[services.s\($0)]\nexecutable = \"vt-testd\"\nargs = [\"s\($0)\"]\n" }
        let file = fopen(manifest, "w")
        fputs(text.joined(), file)
        fclose(file)
        let tag = "measure-\(UInt32.random(in: 0...UInt32.max))"
        let supervisor = try DaemonProcess(
            "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run], environment: ["VT_DAEMON_TAG": tag])
        #expect(
            eventually(timeout: .seconds(60)) {
                guard let status = try? runCommand("svc-supervisor", ["status", "--run-dir", run], in: directory) else {
                    return false
                }
                return status.standardOutput.split(separator: "\n").dropFirst().filter { $0.contains(" ready ") }.count
                    == services
            })
        try await Task.sleep(for: .seconds(2))
        let before = supervisor.contextSwitches() ?? 0
        try await Task.sleep(for: .seconds(30))
        let after = supervisor.contextSwitches() ?? 0
        let rss = readFile("/proc/\(supervisor.pid)/status")?.split(separator: "\n").first { $0.hasPrefix("VmRSS") }
        print(
            "svc-supervisor idle with \(services) services: \(rss ?? "?"), \((after - before) * 2) wake-ups per minute")
        _ = try runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
        supervisor.waitForExit()
        for pid in EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG") { kill(pid, SIGKILL) }
    }
}
