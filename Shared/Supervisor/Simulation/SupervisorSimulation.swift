import VerticalsWire

/// The supervisor's core run against a simulated world, after FoundationDB's simulation and
/// TigerBeetle's VOPR: one thread, simulated processes and clocks, operators' commands at any
/// moment, and a seed that decides everything, so a failing seed replays step for step. After
/// every step the invariants are checked (one process serves outside a hand-over, the restart
/// budget and backoff hold, every command gets one answer, `status` says what runs, a failed
/// upgrade leaves the old process serving, nothing runs and no timer is armed after `down`,
/// nothing leaks, `status` shows what a process said with `STATUS=`). A third of the seeds run
/// a replica's Litestream beside the service (`ReplicaStateMachine`), held to the same promises,
/// and to one of its own: nothing holds the store while a file is put in its place.
///
/// ```swift
/// let report = SupervisorSimulation.explore(seeds: 1..., steps: 300, budget: .seconds(10))
/// print(report.summary)
/// for failure in report.failures { print(failure) }   // one replay line, then the shrunk trace
/// ```
public enum SupervisorSimulation {
    /// What a batch of runs reached.
    public struct Report: Sendable {
        /// Seeds run.
        public var seeds = 0
        /// Steps run across them, settlings included.
        public var steps = 0
        /// (state, event) pairs of the core reached, and how many the world can feed.
        public var pairsReached = 0
        public var pairsPossible = SimulationCoverage.all.count
        /// The pairs never reached, as "state × event".
        public var pairsMissed: [String] = []
        /// The seeds that broke an invariant.
        public var failures: [Failure] = []

        /// One line: seeds, steps, coverage, failures.
        public var summary: String {
            "\(seeds) seeds, \(steps) steps, \(pairsReached) of \(pairsPossible) state × event pairs reached, "
                + "\(failures.count) failed"
        }
    }

    /// A seed that broke an invariant: how to replay it, and the fewest happenings that still break it.
    ///
    /// Its ``code`` is `invariantBroken`; the seed, the steps and the invariant are
    /// also the details `seed`, `steps` and `invariant`.
    public struct Failure: CodedError {
        /// What kind of failure it is.
        public typealias Code = ErrorKind<Failure>

        /// The seed that broke it, and the steps it ran.
        public var seed: UInt64
        public var steps: Int
        /// The invariant broken, and what the run saw.
        public var invariant: String
        public var detail: String
        /// The service's configuration the seed drew.
        public var configuration: String
        /// The shrunk trace, one happening a line.
        public var trace: [String]

        /// The command that replays it.
        public var replay: String { "vt-simulate --seed \(seed) --steps \(steps)" }

        /// What kind of failure it is: always `invariantBroken`.
        public var code: Code { .invariantBroken }

        /// The seed, the seed's steps and the invariant, as the details `seed`, `steps` and `invariant`.
        public var details: [ErrorDetail] {
            [
                ErrorDetail("seed", String(seed)), ErrorDetail("steps", String(steps)),
                ErrorDetail("invariant", invariant),
            ]
        }

        /// The invariant broken, how to replay it, and the shrunk trace, one happening a line.
        public var message: String {
            (["seed \(seed) broke \"\(invariant)\": \(detail) — replay: \(replay)", "  service: \(configuration)"]
                + trace.enumerated().map { "  \($0.offset + 1). \($0.element)" })
                .joined(separator: "\n")
        }
    }

    /// Runs `seed` for `steps` steps; the failure, shrunk, if an invariant broke.
    public static func run(seed: UInt64, steps: Int) -> Failure? {
        failure(of: SimulationRun(seed: seed, steps: steps), steps: steps)
    }

    /// Runs each seed of `seeds` for `steps` steps, until `budget` has passed if one is given
    /// (measured on the machine's clock: only the count of seeds depends on it, never a run).
    public static func explore(
        seeds: some Sequence<UInt64>, steps: Int, budget: Duration? = nil
    ) -> Report {
        var report = Report()
        var reached: Set<SimulationCoverage.Pair> = []
        let deadline = budget.map { ContinuousClock.now + $0 }
        for seed in seeds {
            let run = SimulationRun(seed: seed, steps: steps)
            report.seeds += 1
            report.steps += run.steps
            reached.formUnion(run.coverage)
            if let failure = failure(of: run, steps: steps) { report.failures.append(failure) }
            if let deadline, ContinuousClock.now >= deadline { break }
        }
        report.pairsReached = reached.count
        report.pairsMissed = SimulationCoverage.all.subtracting(reached).sorted().map(\.description)
        return report
    }

    /// The whole trace of `seed`, one happening a line, and how it ended.
    public static func trace(seed: UInt64, steps: Int) -> [String] {
        let run = SimulationRun(seed: seed, steps: steps)
        return ["service: \(run.configuration)"] + run.trace.map(\.description) + [
            run.violation.map { "broke \"\($0.invariant)\": \($0.detail)" } ?? "every invariant held"
        ]
    }

    private static func failure(of run: SimulationRun, steps: Int) -> Failure? {
        guard let violation = run.violation else { return nil }
        let shrunk = shrink(run)
        return Failure(
            seed: run.seed, steps: steps, invariant: violation.invariant, detail: shrunk.violation?.detail ?? "",
            configuration: run.configuration.description, trace: shrunk.trace.map(\.description))
    }

    /// The fewest happenings of `run`'s trace that still break the same invariant: parts are
    /// cut out, halves first, then smaller, while the rest still fails (delta debugging).
    static func shrink(_ run: SimulationRun, dropping dropped: Set<ServiceStateMachine.Action> = []) -> SimulationRun {
        guard let invariant = run.violation?.invariant else { return run }
        var best = run
        var chunk = max(best.trace.count / 2, 1)
        while true {
            var start = 0
            while start < best.trace.count {
                var candidate = best.trace
                candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                let replay = SimulationRun(
                    seed: run.seed, configuration: run.configuration, trace: candidate, dropping: dropped)
                if replay.violation?.invariant == invariant {
                    best = replay
                } else {
                    start += chunk
                }
            }
            if chunk == 1 { break }
            chunk = max(chunk / 2, 1)
        }
        return best
    }
}

extension ErrorKind where Domain == SupervisorSimulation.Failure {
    /// A seed's run broke one of the simulation's invariants.
    public static var invariantBroken: Self { Self("invariantBroken") }
}
