/// The service a simulated run supervises, and how its processes behave: drawn from the seed,
/// so that runs cover every policy the manifest can give.
struct SimulationConfiguration: Sendable, Equatable, CustomStringConvertible {
    var restart: RestartPolicy
    var notifiesReady: Bool
    var startsOnDemand: Bool
    var dependsOnAnother: Bool
    var backoff: Backoff
    var budget: RestartBudget
    var readyTimeout: Duration
    var stopTimeout: Duration
    var watchdog: Duration?
    /// The interval of `daemon.health` checks, and the failures in a row that kill.
    var liveness: (interval: Duration, allowed: Int)?
    /// Its processes ignore the stop signal (only the stop timeout's `SIGKILL` ends them).
    var ignoresStopSignal: Bool
    /// An upgrade's new build backs the store up before migrating it (a rollback restores it).
    var upgradeBacksUp: Bool
    /// Its store has a replica: a Litestream process runs beside it (`ReplicaStateMachine`).
    /// Drawn apart from the rest (``replicated(seed:)``), so adding it changed no seed's run
    /// without one.
    var replicated = false
    /// Each spawn waits first for work off the loop (its folders' ownership walk), which may fail;
    /// once it has ended well, the next spawn has none. Drawn apart, as ``replicated`` is.
    var preparesSpawn = false
    /// Its store is not there yet and it has a replica: its first spawn waits for the store's
    /// restore from the replica, off the loop, which may fail (then the start fails, and the next
    /// one restores again). Only with ``replicated``; drawn apart, as it is.
    var storeMissing = false

    /// Whether the run of `seed` has a replica: a third of them, from a generator of their own.
    static func replicated(seed: UInt64) -> Bool {
        var random = SimulationRandom(seed: seed ^ 0x5EED_11FE)
        return random.chance(percent: 33)
    }

    /// The generator that decides, apart from the rest, when the processes of the run of `seed`
    /// say `STATUS=`: a line said changes none of the choices the run's own generator makes, so
    /// adding them changed no seed's other happenings.
    static func statusLines(seed: UInt64) -> SimulationRandom {
        SimulationRandom(seed: seed ^ 0x57A7_0500)
    }

    /// Whether the spawns of the run of `seed` wait for work off the loop: a quarter of them,
    /// from a generator of their own.
    static func preparesSpawn(seed: UInt64) -> Bool {
        var random = SimulationRandom(seed: seed ^ 0xF01D_E125)
        return random.chance(percent: 25)
    }

    /// Whether the replicated run of `seed` starts without its store: half of them, from a
    /// generator of their own.
    static func storeMissing(seed: UInt64) -> Bool {
        var random = SimulationRandom(seed: seed ^ 0x0057_0BE5)
        return replicated(seed: seed) && random.chance(percent: 50)
    }

    /// A configuration drawn from `random`.
    static func random(_ random: inout SimulationRandom) -> Self {
        Self(
            restart: random.pick(RestartPolicy.allCases),
            notifiesReady: random.chance(percent: 75),
            startsOnDemand: random.chance(percent: 20),
            dependsOnAnother: random.chance(percent: 30),
            backoff: Backoff(
                initial: random.milliseconds(10...500), max: random.milliseconds(500...5_000),
                multiplier: Double(1 + random.below(3)), resetAfter: random.milliseconds(100...3_000)),
            budget: RestartBudget(maxRestarts: 1 + random.below(5), window: random.milliseconds(1_000...20_000)),
            readyTimeout: random.milliseconds(100...2_000),
            stopTimeout: random.milliseconds(100...2_000),
            watchdog: random.chance(percent: 30) ? random.milliseconds(100...1_000) : nil,
            liveness: random.chance(percent: 30) ? (random.milliseconds(100...1_000), 1 + random.below(3)) : nil,
            ignoresStopSignal: random.chance(percent: 20),
            upgradeBacksUp: random.chance(percent: 50))
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }

    var description: String {
        var words = [
            "restart=\(restart.rawValue)", notifiesReady ? "notify" : "no-readiness",
            "budget=\(budget.maxRestarts)/\(budget.window)", "backoff=\(backoff.initial)…\(backoff.max)",
        ]
        if startsOnDemand { words.append("on-demand") }
        if dependsOnAnother { words.append("depends-on-db") }
        if let watchdog { words.append("watchdog=\(watchdog)") }
        if let liveness { words.append("liveness=\(liveness.interval)×\(liveness.allowed)") }
        if ignoresStopSignal { words.append("ignores-stop-signal") }
        if upgradeBacksUp { words.append("upgrade-backs-up") }
        if replicated { words.append("replicated") }
        if preparesSpawn { words.append("walks-folders") }
        if storeMissing { words.append("store-missing") }
        return words.joined(separator: " ")
    }
}
