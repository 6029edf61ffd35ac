import Foundation
import IOInterface
import VerticalsEventLoop
import VerticalsServiceKit

/// Section 4, after settle: what a user meets first once the suite has sat idle past start-up
/// (`svc-supervisor up` on the suite's manifest, a fresh suite each round), against the same
/// later, when it is warm.
///
/// - The first request after settle, against a warm one: a new caller's `clinics.nearest`
///   (connect and call), then the same from another new caller after twenty calls have warmed
///   the path.
/// - The first restart after settle, against a later one: `kill -9` of clinics → the supervisor
///   reports its replacement ready (its status, polled each millisecond), then again once the
///   replacement has settled too.
///
/// Target: the first of each within 1.1× of the later one, so that nothing done to lower a
/// memory figure (a page given back after start-up, say) is paid by the first user.
struct AfterSettle {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop
    var victim = "clinics"

    /// How long after the suite is ready it counts as settled: past start-up's last work, with room.
    static let settled = Duration.seconds(3)
    /// The first of each pair, at most, against the later one.
    static let target = 1.1

    func run() async {
        let manifest = "\(directory)/after-settle.toml"
        do {
            try Self.manifest(settings, victim: victim).write(toFile: manifest, atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write \(manifest): \(error)")
        }
        var firstRequests: [Double] = []
        var warmRequests: [Double] = []
        var firstRestarts: [Double] = []
        var laterRestarts: [Double] = []
        for round in 1...settings.rounds {
            progress("after settle, round \(round)/\(settings.rounds)")
            let suite = await SupervisedSuite.up(
                settings, manifest: manifest, runDirectory: "\(directory)/settle\(round)", loop: loop)
            try? await Task.sleep(for: Self.settled)
            firstRequests.append(await newCallerRequest(suite))
            for _ in 0..<20 { _ = await newCallerRequest(suite) }
            warmRequests.append(await newCallerRequest(suite))
            firstRestarts.append(await restart(suite))
            try? await Task.sleep(for: Self.settled)
            laterRestarts.append(await restart(suite))
            await suite.down()
        }
        report.add(
            "supervisor", "first request after settle: new caller → \(victim).nearest", unit: "ms",
            ours: firstRequests, baselineName: "warm", baseline: warmRequests, ratioName: "first/warm",
            target: .atMost(Self.target))
        report.add(
            "supervisor", "first restart after settle: kill -9 \(victim) → ready", unit: "ms", ours: firstRestarts,
            baselineName: "later restart", baseline: laterRestarts, ratioName: "first/later", target: .atMost(Self.target))
    }

    /// The suite's manifest with the victim's backoff zero and its budget wide, so that both
    /// restarts are the supervisor's own latency, not the waits the manifest asks for (100 ms
    /// first, doubling for each restart before `reset_after`).
    static func manifest(_ settings: BenchSettings, victim: String) -> String {
        guard let text = try? String(contentsOfFile: settings.manifest, encoding: .utf8) else {
            fail("cannot read \(settings.manifest)")
        }
        let header = "[services.\(victim)]\n"
        guard text.contains(header) else { fail("\(settings.manifest) has no \(victim)") }
        return text.replacingOccurrences(
            of: header,
            with: header + "backoff = { initial = \"0ms\", max = \"0ms\", multiplier = 1.0 }\nbudget = { restarts = 1000 }\n")
    }

    /// Milliseconds for a new caller to connect and have `clinics.nearest` answered.
    private func newCallerRequest(_ suite: SupervisedSuite) async -> Double {
        let client = ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(20))
        defer { client.close() }
        let start = ContinuousClock.now
        do {
            _ = try await client.call(Clinics.nearest, .init(latitude: 51.5, longitude: -0.12))
        } catch {
            fail("clinics.nearest failed: \(error)")
        }
        return (ContinuousClock.now - start).microseconds / 1000
    }

    /// Milliseconds from `kill -9` of the victim to the supervisor reporting its replacement ready.
    private func restart(_ suite: SupervisedSuite) async -> Double {
        guard let old = await suite.pids()[victim] else { fail("\(victim) has no pid") }
        let start = ContinuousClock.now
        kill(old, SIGKILL)
        let deadline = start + .seconds(30)
        while ContinuousClock.now < deadline {
            if let status = await suite.status().first(where: { $0.name == victim }), status.ready,
                let pid = status.pid, Int32(pid) != old
            {
                return (ContinuousClock.now - start).microseconds / 1000
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
        fail("\(victim) was not ready again 30 s after kill -9")
    }
}
