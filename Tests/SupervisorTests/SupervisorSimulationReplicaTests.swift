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
}
