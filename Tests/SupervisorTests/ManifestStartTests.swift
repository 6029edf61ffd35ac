import Testing
import VerticalsSupervisor

/// `start` and `idle_exit` (issue 27): read, defaulted, and refused where they cannot work.
@Suite struct ManifestStartTests {
    @Test func startAndIdleExit_areRead_andDefaultToAtStartAndNever() throws {
        let (manifest, problems) = ManifestFixture.parse(
            """
            [services.lazy]
            executable = "true"
            start = "on-demand"
            idle_exit = "5m"
            [services.eager]
            executable = "true"
            [services.napper]
            executable = "true"
            idle_exit = "1s"
            """)
        #expect(problems.isEmpty, "\(problems)")
        let lazy = try #require(manifest["lazy"])
        #expect(lazy.start == .onDemand && lazy.idleExit == .seconds(300) && lazy.startsOnDemand)
        let eager = try #require(manifest["eager"])
        #expect(eager.start == .atStart && eager.idleExit == nil && !eager.startsOnDemand)
        // Started with the suite; after its idle exit, its next caller starts it.
        let napper = try #require(manifest["napper"])
        #expect(napper.start == .atStart && napper.startsOnDemand)
    }

    @Test func idleExit_becomesTheDaemonsVariable_unlessEnvSetsIt() throws {
        var spec = ServiceSpec(name: "a", executable: "/bin/true")
        var environment: [String: String] = [:]
        spec.applyIdleExit(to: &environment)
        #expect(environment.isEmpty)
        spec.idleExit = .milliseconds(2_250)
        spec.applyIdleExit(to: &environment)
        #expect(environment == ["VERTICALS_IDLE_EXIT_SECONDS": "2.25"])
        environment = ["VERTICALS_IDLE_EXIT_SECONDS": "9"]
        spec.applyIdleExit(to: &environment)
        #expect(environment == ["VERTICALS_IDLE_EXIT_SECONDS": "9"])
    }

    @Test(arguments: [
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
