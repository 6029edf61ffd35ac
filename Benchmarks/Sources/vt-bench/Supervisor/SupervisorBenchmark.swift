import Foundation
import VerticalsEventLoop

/// Section 4 (start-up and idle) and section 6 (memory), on the real `svc-supervisor up`:
/// `up` → all five ready and each process's memory (private dirty, PSS; RSS beside), over `rounds` fresh suites; the
/// last suite is kept up for the idle window, the 1,000-connection test and section 5.
struct SupervisorBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop

    /// Runs the rounds; returns the last suite, still up.
    func upRounds() async -> SupervisedSuite {
        var upTimes: [Double] = []
        var memory: [String: [ProcessStats.Memory]] = [:]
        var suite: SupervisedSuite?
        for round in 1...settings.rounds {
            progress("svc-supervisor up round \(round)/\(settings.rounds)")
            let runDirectory = "\(directory)/up\(round)"
            let started = await SupervisedSuite.up(
                settings, environment: IdleConnections.environment, runDirectory: runDirectory, loop: loop)
            upTimes.append(started.upToReady.microseconds / 1000)
            // Past start-up's last allocations (the readiness replies, the first status calls):
            // what each process holds while it serves.
            try? await Task.sleep(for: Self.settled)
            var pids = await started.pids()
            pids["svc-supervisor"] = started.process.processIdentifier
            for (name, pid) in pids {
                guard let reading = ProcessStats.memory(pid) else { fail("\(name) ended during the memory round") }
                memory[name, default: []].append(reading)
            }
            if round == settings.rounds {
                suite = started
            } else {
                await started.down()
            }
        }
        if settings.runs("supervisor") {
            report.add("supervisor", "svc-supervisor up → all five ready", unit: "ms", Summary(upTimes))
        }
        if settings.runs("memory") {
            for name in memory.keys.sorted() {
                // Targets on private dirty memory: an idle vertical ≤ 3 MiB (the supervisor's is
                // held with fifty services, FiftyServices).
                report.addMemory(
                    "memory", "idle \(name), 2 s after ready", memory[name]!,
                    target: name == "svc-supervisor" ? nil : Self.verticalTarget)
            }
        }
        return suite!
    }

    /// An idle vertical's private dirty memory, at most (MiB).
    static let verticalTarget = 3.0

    /// How long after the suite is ready its memory is read: past each daemon's 1 s start-up settle.
    static let settled = Duration.seconds(2)

    /// How long after the last call the idle window starts.
    static let settle = Duration.seconds(10)

    /// The supervisor's (and each vertical's) CPU seconds over `idleSeconds` of an idle suite,
    /// the supervisor's private dirty memory at the end, and each process's wake-ups: context switches of all its
    /// threads over the window, per minute (an idle process should have none).
    func idleWindow(_ suite: SupervisedSuite) async {
        progress("idle window: \(Self.settle) settling, then \(settings.idleSeconds) s")
        let supervisor = suite.process.processIdentifier
        var pids = await suite.pids()
        pids["svc-supervisor"] = supervisor
        // The tail of start-up is not idle: the host's sweep takes two looks after the last
        // call before it rests, and libdispatch's worker threads of GRDB's first accesses end.
        try? await Task.sleep(for: Self.settle)
        let before = pids.mapValues { ProcessStats.cpuSeconds($0) ?? 0 }
        let switchesBefore = pids.mapValues { ProcessStats.contextSwitchesByThread($0) ?? [:] }
        try? await Task.sleep(for: .seconds(settings.idleSeconds))
        let after = pids.mapValues { ProcessStats.cpuSeconds($0) ?? 0 }
        let switchesAfter = pids.mapValues { ProcessStats.contextSwitchesByThread($0) ?? [:] }
        let window = "\(settings.idleSeconds) s idle"
        report.add(
            "supervisor", "svc-supervisor CPU over \(window)", unit: "s",
            Summary([after["svc-supervisor"]! - before["svc-supervisor"]!]))
        report.add(
            "supervisor", "svc-supervisor private dirty after \(window)", unit: "MiB",
            Summary([(ProcessStats.memory(supervisor)?.privateDirty ?? 0) / 1024]))
        let verticals = pids.keys.filter { $0 != "svc-supervisor" }.reduce(0.0) { $0 + after[$1]! - before[$1]! }
        report.add("supervisor", "five verticals' CPU over \(window)", unit: "s", Summary([verticals]))
        let perMinute = 60 / Double(max(1, settings.idleSeconds))
        for name in pids.keys.sorted(by: { ($0 == "svc-supervisor" ? "" : $0) < ($1 == "svc-supervisor" ? "" : $1) }) {
            report.add(
                "idle", "\(name) wake-ups (context switches, all threads) over \(window)", unit: "/min",
                Summary([
                    ProcessStats.contextSwitches(from: switchesBefore[name]!, to: switchesAfter[name]!) * perMinute
                ]))
        }
    }
}
