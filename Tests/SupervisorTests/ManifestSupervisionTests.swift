import SupervisorEngine
import Testing

/// The supervision keys beyond start and restart: backoff reset, strategies, liveness.
@Suite struct ManifestSupervisionTests {
    @Test func supervisionKeys_areRead() throws {
        let (manifest, problems) = ManifestFixture.parse(
            """
            [defaults]
            backoff = { reset_after = "30s" }
            [services.one]
            executable = "true"
            strategy = "rest_for_one"
            liveness = { interval = "2s", timeout = "250ms", failures = 3 }
            [services.two]
            executable = "true"
            strategy = "one_for_all"
            group = "pair"
            """)
        #expect(problems.isEmpty, "\(problems)")
        let one = try #require(manifest["one"])
        #expect(one.backoff.resetAfter == .seconds(30) && one.backoff.initial == .milliseconds(100))
        #expect(one.strategy == .restForOne && one.group == nil)
        #expect(one.liveness == LivenessCheck(interval: .seconds(2), timeout: .milliseconds(250), failures: 3))
        let two = try #require(manifest["two"])
        #expect(two.strategy == .oneForAll && two.group == "pair" && two.liveness == nil)
    }

    @Test(arguments: [
        ("strategy = \"rest_for_all\"", "strategy", "did you mean \"rest_for_one\""),
        ("strategy = \"one_for_all\"", "strategy", "group = \"payments\""),
        ("group = \"g\"", "group", "only used with strategy = \"one_for_all\""),
        ("backoff = { reset_after = \"0s\" }", "backoff.reset_after", "longer than zero"),
        ("liveness = { interval = 5 }", "liveness.interval", "interval = \"5s\""),
        ("liveness = { failures = 0 }", "liveness.failures", "1 or more"),
        ("liveness = { every = \"1s\" }", "liveness.every", "unknown key"),
        ("liveness = { interval = \"1s\" }\nsocket = false", "liveness", "needs socket = true"),
    ])
    func wrongValue_namesTheKeyAndWhatItMustBe(line: String, key: String, excerpt: String) throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\n\(line)\n")
        let problem = try #require(problems.first { $0.key == key }, "\(problems)")
        #expect(problem.service == "one" && problem.message.contains(excerpt), "\(problem.message)")
    }
}
