import Foundation
import VerticalsEventLoop

/// Section "curves", services: one `svc-supervisor up` on a manifest of 5 to 200 services
/// (identity and svc-clinics that depend on it, ``FiftyServices/manifest(count:)``), each point a
/// fresh supervisor, the points interleaved round by round. At each: `up` → all ready; the
/// supervisor's private dirty memory once they are ready and settled; the p50 of
/// ``statusCalls`` `status` calls one after the other through its control socket (what
/// `svc-supervisor status` asks, every service's line in the answer); and the wake-ups (context
/// switches, all threads, per minute) of the supervisor and of all the services together over an
/// idle window of at most ``longestWindow``. The quick run takes 5, 50 and 200; the full run adds 20,
/// and takes at most ``mostRounds`` rounds whatever `BENCH_ROUNDS` says (a point costs some 25 s,
/// most of it the settle and the window, and the figures repeat from round to round). As root,
/// `make bench` runs the services as its own user (`VERTICALS_SERVICE_USERS=off`).
///
/// An idle suite is asleep however many services it holds (no wake-ups at any point); the
/// supervisor's memory grows at most linearly with its services.
struct ServicesCurve {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop
    /// `status` calls timed at each point.
    static let statusCalls = 200
    /// The idle window's longest: `BENCH_IDLE_SECONDS` is the supervisor section's, a minute by
    /// default, and the curve watches one window a point a round.
    static let longestWindow = 10
    /// Rounds at most.
    static let mostRounds = 3

    var counts: [Int] { settings.rounds <= 2 ? [5, 50, 200] : [5, 20, 50, 200] }
    var rounds: Int { min(settings.rounds, Self.mostRounds) }

    /// What one point measured.
    struct Point {
        var upMilliseconds: Double
        var privateDirty: Double
        var statusMicroseconds: Double
        var supervisorWakeUps: Double
        var servicesWakeUps: Double
    }

    func run() async {
        // Each service's pipes, socket and pidfd are the supervisor's descriptors too.
        _ = DescriptorLimit.raiseToHard()
        ProcessStats.cleanFilePages()
        var manifests: [String] = []
        for count in counts {
            let path = "\(directory)/services-\(count).toml"
            do {
                try FiftyServices.manifest(count: count).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                fail("cannot write the services curve's manifest \(path): \(error)")
            }
            manifests.append(path)
        }
        var measured = [[Point]](repeating: [], count: counts.count)
        for round in 1...rounds {
            progress("curves: services, round \(round)/\(rounds)")
            for index in counts.indices {
                measured[index].append(
                    await measure(manifest: manifests[index], runDirectory: "\(directory)/services-\(round)-\(index)"))
            }
        }
        let points = counts.map(Double.init)
        let work = "services under one supervisor"
        func curve(_ name: String, _ unit: String, _ value: (Point) -> Double) {
            report.addCurve(
                "curves",
                Curve(
                    name: name, work: work, unit: unit, points: points,
                    values: measured.map { Summary($0.map(value)) }))
        }
        curve("up → all ready", "ms", \.upMilliseconds)
        curve("svc-supervisor private dirty", "MiB", \.privateDirty)
        curve("status p50 (\(Self.statusCalls) calls, control socket)", "µs", \.statusMicroseconds)
        let window = "\(min(settings.idleSeconds, Self.longestWindow)) s idle"
        curve("svc-supervisor wake-ups over \(window)", "/min", \.supervisorWakeUps)
        curve("all services' wake-ups over \(window)", "/min", \.servicesWakeUps)
    }

    private func measure(manifest: String, runDirectory: String) async -> Point {
        let suite = await SupervisedSuite.up(
            settings, manifest: manifest, runDirectory: runDirectory, loop: loop, readyWithin: .seconds(180))
        let supervisor = suite.process.processIdentifier
        // Past start-up's last allocations (the readiness replies, the first status calls).
        try? await Task.sleep(for: SupervisorBenchmark.settled)
        guard let memory = ProcessStats.memory(supervisor) else {
            fail("svc-supervisor ended during the services curve")
        }
        var samples: [Double] = []
        for _ in 0..<Self.statusCalls {
            let start = ContinuousClock.now
            _ = await suite.status()
            samples.append((ContinuousClock.now - start).microseconds)
        }
        samples.sort()
        // The calls above are the last work: the window starts once the supervisor and every
        // service have rested after them (see SupervisorBenchmark.settle).
        let services = Array(await suite.pids().values)
        try? await Task.sleep(for: SupervisorBenchmark.settle)
        let seconds = min(settings.idleSeconds, Self.longestWindow)
        let before = ([supervisor] + services).map { ProcessStats.contextSwitchesByThread($0) ?? [:] }
        try? await Task.sleep(for: .seconds(seconds))
        let after = ([supervisor] + services).map { ProcessStats.contextSwitchesByThread($0) ?? [:] }
        let perMinute = zip(before, after).map { ProcessStats.contextSwitches(from: $0, to: $1) * 60 / Double(seconds) }
        await suite.down()
        return Point(
            upMilliseconds: suite.upToReady.microseconds / 1000, privateDirty: memory.privateDirty / 1024,
            statusMicroseconds: samples[samples.count / 2], supervisorWakeUps: perMinute[0],
            servicesWakeUps: perMinute.dropFirst().reduce(0, +))
    }
}
