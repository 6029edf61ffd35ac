import Foundation
import VerticalsEventLoop

/// Section 4 (start-up and idle) and section 6 (memory), on the real `svc-supervisor up`:
/// `up` → all five ready and each process's resident memory, over `rounds` fresh suites; the
/// last suite is kept up for the idle window, the 1,000-connection test and section 5.
struct SupervisorBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop

    /// Runs the rounds; returns the last suite, still up.
    func upRounds() async -> SupervisedSuite {
        var upTimes: [Double] = []
        var rss: [String: [Double]] = [:]
        var suite: SupervisedSuite?
        for round in 1...settings.rounds {
            progress("svc-supervisor up round \(round)/\(settings.rounds)")
            let runDirectory = "\(directory)/up\(round)"
            let started = await SupervisedSuite.up(
                settings, environment: IdleConnections.environment, runDirectory: runDirectory, loop: loop)
            upTimes.append(started.upToReady.microseconds / 1000)
            // Past a daemon's start-up settle (1 s after its READY=1, ServiceRuntime.startUpSettle),
            // when it has given back the pages only its start-up used: what it holds while it serves.
            try? await Task.sleep(for: Self.settled)
            for (name, pid) in await started.pids() {
                rss[name, default: []].append((ProcessStats.rssKiB(pid) ?? 0) / 1024)
            }
            rss["svc-supervisor", default: []].append((ProcessStats.rssKiB(started.process.processIdentifier) ?? 0) / 1024)
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
            for name in rss.keys.sorted() {
                report.add("memory", "RSS idle \(name) (2 s after ready)", unit: "MiB", Summary(rss[name]!))
            }
        }
        return suite!
    }

    /// How long after the suite is ready its memory is read: past each daemon's 1 s start-up settle.
    static let settled = Duration.seconds(2)

    /// How long after the last call the idle window starts.
    static let settle = Duration.seconds(10)

    /// The supervisor's (and each vertical's) CPU seconds over `idleSeconds` of an idle suite,
    /// the supervisor's RSS at the end, and each process's wake-ups: context switches of all its
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
            "supervisor", "svc-supervisor RSS after \(window)", unit: "MiB",
            Summary([(ProcessStats.rssKiB(supervisor) ?? 0) / 1024]))
        let verticals = pids.keys.filter { $0 != "svc-supervisor" }.reduce(0.0) { $0 + after[$1]! - before[$1]! }
        report.add("supervisor", "five verticals' CPU over \(window)", unit: "s", Summary([verticals]))
        let perMinute = 60 / Double(max(1, settings.idleSeconds))
        for name in pids.keys.sorted(by: { ($0 == "svc-supervisor" ? "" : $0) < ($1 == "svc-supervisor" ? "" : $1) }) {
            report.add(
                "idle", "\(name) wake-ups (context switches, all threads) over \(window)", unit: "/min",
                Summary([ProcessStats.contextSwitches(from: switchesBefore[name]!, to: switchesAfter[name]!) * perMinute]))
        }
    }
}
