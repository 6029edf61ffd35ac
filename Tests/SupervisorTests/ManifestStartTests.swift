import Testing
import VerticalsSupervisor
import VerticalsSharedTesting

/// `start` and `idle_exit`: read and defaulted; the problems they raise are cases of
/// `ManifestSupervisionTests.wrongValue_namesTheKeyAndWhatItMustBe`.
@Suite struct ManifestStartTests {
    @Test func startAndIdleExit_areRead_andDefaultToAtStartAndNever() throws {
        let manifest = ManifestFixture.valid(
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
        #expect(
            environment == ["VERTICALS_IDLE_EXIT_SECONDS": "2.25", "VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS": "12"])
        environment = ["VERTICALS_IDLE_EXIT_SECONDS": "9", "VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS": "0"]
        spec.applyIdleExit(to: &environment)
        #expect(environment == ["VERTICALS_IDLE_EXIT_SECONDS": "9", "VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS": "0"])
    }
}
