import Testing
import VerticalsSupervisor
import VerticalsSharedTesting

/// The supervision keys beyond start and restart: backoff reset, strategies, liveness.
@Suite struct ManifestSupervisionTests {
    @Test func supervisionKeys_areRead() throws {
        let manifest = ManifestFixture.valid(
            """
            [defaults]
            backoff = { reset_after = "30s" }
            [services.one]
            executable = "true"
            strategy = "rest_for_one"
            liveness = { interval = "2s", timeout = "250ms", failures = 3 }
            logs = { max_age = "24h", keep = 3, compress = false }
            [services.two]
            executable = "true"
            strategy = "one_for_all"
            group = "pair"
            limits = { open_files = 256, data = "1GiB", core = 0, cpu_seconds = 600, nice = -5, memory = "64MiB", cpu = "150%", cpu_weight = 20, tasks = 64 }
            """)
        let one = try #require(manifest["one"])
        #expect(one.backoff.resetAfter == .seconds(30) && one.backoff.initial == .milliseconds(100))
        #expect(one.strategy == .restForOne && one.group == nil)
        #expect(one.liveness == LivenessCheck(interval: .seconds(2), timeout: .milliseconds(250), failures: 3))
        let two = try #require(manifest["two"])
        #expect(two.strategy == .oneForAll && two.group == "pair" && two.liveness == nil)
        #expect(
            two.limits
                == ResourceLimits(
                    openFiles: 256, dataBytes: 1 << 30, coreBytes: 0, cpuSeconds: 600, nice: -5, memoryBytes: 64 << 20,
                    cpuPercent: 150, cpuWeight: 20, tasks: 64))
        #expect(one.limits == ResourceLimits())
        #expect(one.logRotation == LogRotation(maxAge: .seconds(86_400), keep: 3, compress: false))
        #expect(two.logRotation == LogRotation())
    }

    @Test(arguments: [
        ("strategy = \"rest_for_all\"", "strategy", "did you mean \"rest_for_one\""),
        ("strategy = \"one_for_all\"", "strategy", "group = \"payments\""),
        ("group = \"g\"", "group", "only used with strategy = \"one_for_all\""),
        ("backoff = { reset_after = \"0s\" }", "backoff.reset_after", "longer than zero"),
        ("liveness = { interval = 5 }", "liveness.interval", "interval = \"5s\""),
        ("liveness = { failures = 0 }", "liveness.failures", "from 1 to 1000"),
        ("liveness = { every = \"1s\" }", "liveness.every", "unknown key"),
        ("liveness = { interval = \"1s\" }\nsocket = false", "liveness", "needs socket = true"),
        ("limits = { files = 10 }", "limits.files", "did you mean 'open_files'"),
        ("limits = { nice = 20 }", "limits.nice", "from -20 to 19"),
        ("limits = { open_files = \"many\" }", "limits.open_files", "must be an integer"),
        ("limits = { memory = \"1KiB\" }", "limits.memory", "below 4MiB"),
        ("limits = { memory = \"lots\" }", "limits.memory", "not a size"),
        ("limits = { cpu = 50 }", "limits.cpu", "\"50%\""),
        ("limits = { cpu = \"0%\" }", "limits.cpu", "from \"1%\""),
        ("limits = { cpu_weight = 0 }", "limits.cpu_weight", "from 1 to 10000"),
        ("limits = { cpu_weight = \"low\" }", "limits.cpu_weight", "must be an integer"),
        ("logs = { keep = -1 }", "logs.keep", "from 0 to 1000"),
        ("logs = { compress = \"yes\" }", "logs.compress", "must be a boolean"),
        ("logs = { max_age = \"1 day\" }", "logs.max_age", "is not a duration"),
        ("logs = { maxage = \"1h\" }", "logs.maxage", "did you mean 'max_age'"),
        // start and idle_exit (ManifestStartTests has the rest).
        ("start = \"ondemand\"", "start", "did you mean \"on-demand\""),
        ("start = true", "start", "must be a string"),
        ("start = \"on-demand\"\nsocket = false", "start", "needs socket = true"),
        ("idle_exit = 300", "idle_exit", "idle_exit = \"300s\""),
        ("idle_exit = \"0s\"", "idle_exit", "longer than zero; leave the key out"),
        ("idle_exit = \"soon\"", "idle_exit", "is not a duration"),
        ("idle_exit = \"1m\"\nsocket = false", "idle_exit", "needs socket = true"),
        ("idle_exit = \"1m\"\nrestart = \"always\"", "idle_exit", "use restart = \"on-failure\""),
        ("idleexit = \"1m\"", "idleexit", "did you mean 'idle_exit'"),
    ])
    func wrongValue_namesTheKeyAndWhatItMustBe(line: String, key: String, excerpt: String) throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\n\(line)\n")
        let problem = try #require(problems.first { $0.key == key }, "\(problems)")
        #expect(problem.service == "one" && problem.message.contains(excerpt), "\(problem.message)")
    }
}
