import Testing
@testable import VerticalsSupervisor

/// The replica's Litestream in the simulated world: a third of the seeds run one beside the
/// service, and a shell that forgets one of its actions is caught by an invariant.
@Suite struct SupervisorSimulationReplicaTests {
    @Test func simulation_replicatesAThirdOfTheSeeds() {
        let replicated = SupervisorSimulationTests.seeds.filter { SimulationConfiguration.replicated(seed: $0) }
        #expect(replicated.count > 50 && replicated.count < 250)
    }

    @Test(arguments: [ReplicaStateMachine.Action.sendStopSignal, .notifyStopWaiters, .cancelTimer])
    func simulation_whenTheShellDropsAReplicaAction_breaksAnInvariant(_ action: ReplicaStateMachine.Action) {
        let failing = SupervisorSimulationTests.seeds.lazy
            .map { SimulationRun(seed: $0, steps: SupervisorSimulationTests.steps, droppingReplica: [action]) }
            .first { $0.violation != nil }
        #expect(failing != nil, "no seed noticed that the replica's \(action) is never performed")
    }

    @Test func simulation_missesTheStoreOfHalfTheReplicatedSeeds() {
        let seeds = SupervisorSimulationTests.seeds
        let missing = seeds.filter { SimulationConfiguration.storeMissing(seed: $0) }
        #expect(missing.allSatisfy { SimulationConfiguration.replicated(seed: $0) })
        #expect(
            missing.count > 20 && missing.count < seeds.filter { SimulationConfiguration.replicated(seed: $0) }.count)
    }

    /// A store that is not there comes back from the replica before the first spawn, off the
    /// loop: a failed restore is a failed start, and the next start restores again; once it has
    /// ended well, the process starts and serves.
    @Test func simulation_withoutItsStore_restoresItBeforeTheFirstSpawn_againAfterAFailure() {
        var configuration = SimulationRun(seed: 1, steps: 0).configuration
        configuration.replicated = true
        configuration.storeMissing = true
        configuration.preparesSpawn = false
        configuration.dependsOnAnother = false
        configuration.notifiesReady = true
        configuration.restart = .always
        configuration.budget = RestartBudget(maxRestarts: 5, window: .seconds(60))
        let trace: [SimulationHappening] = [
            .command(.start), .preparationEnds(failed: true), .nextTimerFires(checkPasses: true),
            .preparationEnds(failed: false), .processReady(.own),
        ]
        let run = SimulationRun(seed: 1, configuration: configuration, trace: trace)
        #expect(run.violation == nil, "\(run.violation.map { "\($0)" } ?? "")")
        let pairs = run.coverage.map(\.description)
        for pair in ["starting × preparationBegun", "starting × preparationEnded", "backoff × backoffElapsed"] {
            #expect(pairs.contains(pair), "\(pair) not reached: \(pairs.sorted())")
        }
        #expect(pairs.contains("starting × ready"), "the process never served: \(pairs.sorted())")
    }
}
