import ArgumentParser
import VerticalsSupervisor

/// `vt-simulate` (`make simulate`): the supervisor's core run against a simulated world, seed
/// after seed, each checked against the invariants at every step. Prints seeds per second,
/// steps, the state × event pairs reached and every failure, with the line that replays it and
/// its shrunk trace. Exit 0 when every invariant held, 1 otherwise.
@main
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vt-simulate",
        abstract: "Run the supervisor's core in a deterministic simulation; every failure printed with its replay.",
        discussion: """
            Examples:
              vt-simulate --seeds 10000
              vt-simulate --seconds 60 --first-seed 1000000
              vt-simulate --seed 1234 --steps 300     (one seed again, its whole trace printed)
            """)

    @Option(help: "Seeds to run (default: 1000 unless --seconds is given).") var seeds: Int?
    @Option(help: "Run seeds until this many seconds have passed.") var seconds: Double?
    @Option(help: "The first seed.") var firstSeed: UInt64 = 1
    @Option(help: "Steps per seed, before the closing down and settling.") var steps = 300
    @Option(help: "Run this one seed again and print its trace.") var seed: UInt64?
    @Flag(help: "Print the state × event pairs never reached.") var showMissed = false

    func run() throws {
        if let seed {
            for line in SupervisorSimulation.trace(seed: seed, steps: steps) { print(line) }
            if let failure = SupervisorSimulation.run(seed: seed, steps: steps) {
                print(failure)
                throw ExitCode(1)
            }
            return
        }
        let count = seeds ?? (seconds == nil ? 1_000 : Int.max)
        let last = firstSeed.addingReportingOverflow(UInt64(count)).overflow ? UInt64.max : firstSeed + UInt64(count)
        let started = ContinuousClock.now
        let report = SupervisorSimulation.explore(
            seeds: firstSeed..<last, steps: steps, budget: seconds.map { .milliseconds(Int64($0 * 1_000)) })
        let elapsed = ContinuousClock.now - started
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(report.summary)
        print(
            "\(Int(Double(report.seeds) / max(elapsedSeconds, 1e-9))) seeds/s, "
                + "\(Int(Double(report.steps) / max(elapsedSeconds, 1e-9))) steps/s")
        if showMissed { for pair in report.pairsMissed { print("  not reached: \(pair)") } }
        for failure in report.failures { print(failure) }
        if !report.failures.isEmpty { throw ExitCode(1) }
    }
}
