/// One seeded run of the simulated world: the seed draws the configuration, then one happening
/// per step among those that can happen, weighted towards the interesting (a signalled process
/// exits soon, a timer fires, an operator races the service). After every step the invariants
/// are checked; at the end a `down` is asked and the world drained, then checked for leaks.
struct SimulationRun {
    let seed: UInt64
    let configuration: SimulationConfiguration
    /// The happenings of the run's steps, in order (the settling after them is derived).
    private(set) var trace: [SimulationHappening] = []
    private(set) var violation: SimulatedWorld.Violation?
    /// The step that broke an invariant (the settling's steps count after the trace's).
    private(set) var failingStep: Int?
    private(set) var coverage: Set<SimulationCoverage.Pair> = []
    /// Steps run, the settling's included.
    private(set) var steps = 0

    /// Runs `steps` steps drawn from `seed`, then settles; `dropped` actions are not performed.
    init(
        seed: UInt64, steps: Int, dropping dropped: Set<ServiceStateMachine.Action> = [],
        droppingReplica droppedReplica: Set<ReplicaStateMachine.Action> = []
    ) {
        self.seed = seed
        var random = SimulationRandom(seed: seed)
        var configuration = SimulationConfiguration.random(&random)
        configuration.replicated = SimulationConfiguration.replicated(seed: seed)
        configuration.preparesSpawn = SimulationConfiguration.preparesSpawn(seed: seed)
        configuration.storeMissing = SimulationConfiguration.storeMissing(seed: seed)
        self.configuration = configuration
        let world = SimulatedWorld(
            configuration: configuration, origin: Self.origin, dropping: dropped, droppingReplica: droppedReplica)
        var lines = SimulationConfiguration.statusLines(seed: seed)
        for _ in 0..<steps where world.violation == nil {
            // A process's `STATUS=` line, now and then, between the run's own happenings.
            if let line = Self.statusLine(in: world, &lines) {
                trace.append(line)
                world.apply(line)
                world.check()
                guard world.violation == nil else { break }
            }
            let happening = Self.draw(in: world, &random)
            trace.append(happening)
            world.apply(happening)
            world.check()
        }
        finish(world)
    }

    /// Replays `trace` over `configuration` (a seed's, or a shrunk part of one).
    init(
        seed: UInt64, configuration: SimulationConfiguration, trace: [SimulationHappening],
        dropping dropped: Set<ServiceStateMachine.Action> = []
    ) {
        self.seed = seed
        self.configuration = configuration
        let world = SimulatedWorld(configuration: configuration, origin: Self.origin, dropping: dropped)
        for happening in trace where world.violation == nil {
            self.trace.append(happening)
            world.apply(happening)
            world.check()
        }
        finish(world)
    }

    /// The one instant a run reads: its clocks count from it, so no decision depends on its value.
    private static let origin = ContinuousClock.now

    /// The longest a settling may take before what still runs is called a leak.
    private static let settlingSteps = 200

    private mutating func finish(_ world: SimulatedWorld) {
        steps = trace.count
        if world.violation == nil {
            world.apply(.command(.down))
            world.check()
            steps += 1
            for _ in 0..<Self.settlingSteps where world.violation == nil {
                guard let happening = Self.settling(world) else { break }
                world.apply(happening)
                world.check()
                steps += 1
            }
            if world.violation == nil { world.checkSettled() }
        }
        violation = world.violation
        if violation != nil { failingStep = steps }
        coverage = world.coverage
    }

    /// What happens next while nothing new is asked: restores end, signalled processes exit, timers fire.
    private static func settling(_ world: SimulatedWorld) -> SimulationHappening? {
        if let replica = world.replicaProcess, replica.killed || replica.stopSignalled {
            return .replicaExits(clean: true)
        }
        if world.restore != nil { return .restoreFinishes }
        if world.preparing { return .preparationEnds(failed: false) }
        for role in [SimulatedRole.own, .upgrade, .orphan] {
            guard let pid = world.pid(of: role), let process = world.processes[pid] else { continue }
            if process.killed { return .processExits(role, .killed) }
            if process.stopSignalled, !world.configuration.ignoresStopSignal { return .processExits(role, .clean) }
            if role == .orphan { return .processExits(role, .killed) }
        }
        if world.nextTimer != nil { return .nextTimerFires(checkPasses: true) }
        return nil
    }

    /// A `STATUS=` line one of the processes of `world` says now, if `lines` decides one does.
    private static func statusLine(in world: SimulatedWorld, _ lines: inout SimulationRandom) -> SimulationHappening? {
        let says = lines.chance(percent: 10)
        let role: SimulatedRole = lines.chance(percent: 70) ? .own : .upgrade
        guard says, world.pid(of: role) != nil else { return nil }
        return .processSaysStatus(role, count: 1 + lines.below(1_000))
    }

    /// The next happening, drawn among those that can happen in `world`.
    private static func draw(in world: SimulatedWorld, _ random: inout SimulationRandom) -> SimulationHappening {
        var choices: [(SimulationHappening, Int)] = [
            (.command(.start), 3), (.command(.stop), 3), (.command(.restart), 2), (.command(.upgrade), 4),
            (.command(.restore), 2), (.command(.down), 1),
            (.timePasses(milliseconds: 1 + random.below(3_000)), 5),
            (.suspend(milliseconds: 1 + random.below(20_000)), 1),
            (.wallClockSet(milliseconds: random.below(7_200_000) - 3_600_000), 1),
            (.executable(broken: random.chance(percent: 30)), 1),
        ]
        let configuration = world.configuration
        if world.nextTimer != nil { choices.append((.nextTimerFires(checkPasses: random.chance(percent: 70)), 12)) }
        if world.restore != nil { choices.append((.restoreFinishes, 10)) }
        if world.preparing { choices.append((.preparationEnds(failed: random.chance(percent: 20)), 10)) }
        if world.watchingForDemand { choices.append((.caller, 6)) }
        if configuration.dependsOnAnother { choices.append((.dependency(ready: !world.dependencyReady), 3)) }
        for role in [SimulatedRole.own, .upgrade, .orphan] {
            guard let pid = world.pid(of: role), let process = world.processes[pid] else { continue }
            let leaving = process.killed || (process.stopSignalled && !configuration.ignoresStopSignal)
            let exit: SimulatedExit =
                process.stopSignalled && random.chance(percent: 70)
                ? random.pick([.clean, .terminated]) : random.pick(SimulatedExit.allCases)
            choices.append((.processExits(role, exit), leaving || role == .orphan ? 20 : 3))
            if !process.ready, configuration.notifiesReady, role != .orphan {
                choices.append((.processReady(role), 12))
            }
        }
        if let replica = world.replicaProcess {
            let leaving = replica.killed || replica.stopSignalled
            choices.append((.replicaExits(clean: random.chance(percent: 30)), leaving ? 20 : 2))
        }
        if let pid = world.pid(of: .upgrade), world.processes[pid]?.waitsForStore == false {
            choices.append((.processWaitsForStore, 6))
        }
        if world.pid(of: .own) != nil {
            if configuration.watchdog != nil { choices.append((.watchdogPing, 4)) }
            choices.append((.stoppingOnItsOwn, 1))
        }
        var roll = random.below(choices.reduce(0) { $0 + $1.1 })
        for (happening, weight) in choices {
            if roll < weight { return happening }
            roll -= weight
        }
        return choices[0].0
    }
}
