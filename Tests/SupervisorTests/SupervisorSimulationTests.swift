import Testing
@testable import VerticalsSupervisor

/// The supervisor's core in the simulated world: a fixed budget of seeds breaks no invariant, a
/// seed replays exactly, a broken shell is caught, and a failing trace shrinks.
@Suite struct SupervisorSimulationTests {
    /// Seeds and steps per seed that `make test` runs: a few seconds of a debug build.
    static let seeds: ClosedRange<UInt64> = 1...400
    static let steps = 300

    @Test func simulation_overAFixedBudgetOfSeeds_breaksNoInvariant() {
        let report = SupervisorSimulation.explore(seeds: Self.seeds, steps: Self.steps)
        #expect(report.seeds == Self.seeds.count)
        #expect(report.failures.isEmpty, "\(report.failures.map(\.description).joined(separator: "\n"))")
        #expect(report.pairsReached >= 120, "\(report.summary)")
        // The processes' `STATUS=` lines and a spawn's folders' walk are among what the seeds reach.
        let reached = [
            "ready × statusSaid", "stopping × statusSaid", "upgrading(preparing) × upgradeProcessSaid",
            "starting × preparationBegun", "starting × preparationEnded", "stopping × preparationEnded",
        ]
        for pair in reached { #expect(!report.pairsMissed.contains(pair), "\(pair) not reached") }
    }

    @Test func simulation_sameSeed_replaysTheSameRun() {
        let first = SimulationRun(seed: 7, steps: Self.steps)
        let again = SimulationRun(seed: 7, steps: Self.steps)
        #expect(first.trace == again.trace)
        #expect(first.steps == again.steps)
        #expect(first.coverage == again.coverage)
        #expect(first.trace != SimulationRun(seed: 8, steps: Self.steps).trace)
    }

    @Test func simulation_replayingItsOwnTrace_endsTheSameWay() {
        let run = SimulationRun(seed: 11, steps: Self.steps)
        let replay = SimulationRun(seed: 11, configuration: run.configuration, trace: run.trace)
        #expect(replay.trace == run.trace)
        #expect(replay.violation == run.violation)
        #expect(replay.coverage == run.coverage)
    }

    @Test(arguments: [
        ServiceStateMachine.Action.notifyStopWaiters, .cancelTimer, .sendStopSignal, .stopWatchingForDemand,
        .sendHandOverSignal, .answerUpgrade(.failedBeforeHandOver(reason: "ended before it was ready")),
        .answerUpgrade(.abandoned(afterHandOver: false)), .announceState, .checkDependencies,
    ])
    func simulation_whenTheShellDropsAnAction_breaksAnInvariant(_ action: ServiceStateMachine.Action) {
        let failing = Self.seeds.lazy.map { SimulationRun(seed: $0, steps: Self.steps, dropping: [action]) }
            .first { $0.violation != nil }
        #expect(failing != nil, "no seed noticed that \(action) is never performed")
    }

    @Test func shrink_ofAFailingRun_keepsFewerHappeningsThatBreakTheSameInvariant() throws {
        let dropped: Set<ServiceStateMachine.Action> = [.notifyStopWaiters]
        let failing = try #require(
            Self.seeds.lazy.map { SimulationRun(seed: $0, steps: Self.steps, dropping: dropped) }
                .first { $0.violation != nil && $0.trace.count > 5 })
        let shrunk = SupervisorSimulation.shrink(failing, dropping: dropped)
        #expect(shrunk.violation?.invariant == failing.violation?.invariant)
        #expect(shrunk.trace.count < failing.trace.count)
    }
}

/// The seeds that found a bug, each kept: it must pass now.
@Suite struct SupervisorSimulationRegressionTests {
    @Test(
        arguments: [
            // A restart racing `down`: its fresh start ran once the old process was gone.
            1,
            // A start asked during `down`: the service started again after it.
            27,
            // An upgrade accepted while the old process was being killed for a missed watchdog.
            65,
            // A rollback's restore ended after `down`: the upgrade was never answered.
            292,
            // READY=1 from an upgrade's new process its deadline had killed completed the upgrade.
            20090,
            // A start and a restart during one stop: two checks, the second skipping the backoff
            // the first's failed spawn began, and leaving its timer armed after down.
            103_414,
        ] as [UInt64])
    func seed_thatFoundABug_holdsEveryInvariant(_ seed: UInt64) {
        let failure = SupervisorSimulation.run(seed: seed, steps: SupervisorSimulationTests.steps)
        #expect(failure == nil, "\(failure.map(\.description) ?? "")")
    }
}
