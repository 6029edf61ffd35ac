import Foundation
import IOInterface
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit

/// Section 4, after settle: what a user meets first once the suite has sat idle past start-up
/// (`svc-supervisor up` on the suite's manifest, a fresh suite each round), against the same
/// later, when it is warm.
///
/// - The first request after settle, against a warm one: a new caller's `clinics.nearest`
///   (connect and call), then the same from another new caller after twenty calls have warmed
///   the path. Beside it, clinics' own CPU for each of the two requests (all its threads, from
///   `/proc/PID/task/*/schedstat`) and the threads it started for the first: the first request's
///   extra is work clinics does once (the Swift runtime instantiating generic metadata, each
///   instantiation that checks a protocol requirement scanning every conformance record of the
///   static binary; the store's read queue starting its thread), not a wake-up from idle. And
///   the C echo (`uv_echo`, started beside the suite, answering `bench.echo` as a response)
///   timed the same way, first after the same settle and then warm, in the same rounds: what
///   the machine alone adds to a first request after a quiet spell (caches, a core waking).
/// - The first restart after settle, against a later one: `kill -9` of clinics → the supervisor
///   reports its replacement ready (its status, polled each millisecond), then again once the
///   replacement has settled too.
///
/// The first request has no target: against a warm request it would compare a one-time cost of
/// the Swift runtime with a request that no longer pays it, which only work moved before READY=1
/// (into every start and restart) could meet. It is shown against the C echo's own first
/// request after the same settle, and against its warm one. The first restart's target: within
/// 1.1× of a later one, so that nothing done to lower a memory figure (a page given back after
/// start-up, say) is paid by the first user.
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
        var cFirst: [Double] = []
        var cWarm: [Double] = []
        var firstCPU: [Double] = []
        var warmCPU: [Double] = []
        var firstThreads: [Double] = []
        var firstRestarts: [Double] = []
        var laterRestarts: [Double] = []
        for round in 1...settings.rounds {
            progress("after settle, round \(round)/\(settings.rounds)")
            // The C echo, started beside the suite, settles as long.
            let echoDirectory = "\(directory)/settle\(round)-c"
            try? FileManager.default.createDirectory(atPath: echoDirectory, withIntermediateDirectories: true)
            let kind = BenchEcho.responseKindByte
            let echo = Subprocess.start(
                settings.uvEcho,
                ["server", "\(echoDirectory)/\(BenchEcho.name).sock", "\(kind.offset)", "\(kind.value)"])
            Subprocess.waitForListener("\(echoDirectory)/\(BenchEcho.name).sock")
            let suite = await SupervisedSuite.up(
                settings, manifest: manifest, runDirectory: "\(directory)/settle\(round)", loop: loop)
            try? await Task.sleep(for: Self.settled)
            let echoSockets = SocketDirectory(echoDirectory)
            guard let victimPID = await suite.pids()[victim] else { fail("\(victim) has no pid") }
            // Which first goes first alternates, so neither wakes the machine for the other.
            if round % 2 == 0 { cFirst.append(await echoRequest(echoSockets)) }
            let (first, firstUse) = await newCallerRequest(suite, measuring: victimPID)
            if round % 2 == 1 { cFirst.append(await echoRequest(echoSockets)) }
            for _ in 0..<20 {
                await newCallerRequest(suite)
                _ = await echoRequest(echoSockets)
            }
            let (warm, warmUse) = await newCallerRequest(suite, measuring: victimPID)
            cWarm.append(await echoRequest(echoSockets))
            Subprocess.stop(echo)
            firstRequests.append(first)
            warmRequests.append(warm)
            firstCPU.append(firstUse.runNanoseconds / 1_000_000)
            warmCPU.append(warmUse.runNanoseconds / 1_000_000)
            firstThreads.append(Double(firstUse.threads))
            firstRestarts.append(await restart(suite))
            try? await Task.sleep(for: Self.settled)
            laterRestarts.append(await restart(suite))
            await suite.down()
        }
        report.add(
            "supervisor", "first request after settle: new caller → \(victim).nearest", unit: "ms",
            ours: firstRequests, baselineName: "warm", baseline: warmRequests, ratioName: "first/warm")
        report.add(
            "supervisor", "  its first/warm against the C echo's first/warm", unit: "×",
            ours: zip(firstRequests, warmRequests).map { $0 / $1 }, baselineName: "C echo",
            baseline: zip(cFirst, cWarm).map { $0 / $1 }, ratioName: "ours/C")
        report.add(
            "supervisor", "  CPU \(victim) spent on that request (all threads, schedstat)", unit: "ms",
            ours: firstCPU, baselineName: "warm", baseline: warmCPU, ratioName: "first/warm")
        report.add(
            "supervisor", "  threads \(victim) started for that request", unit: "", Summary(firstThreads))
        report.add(
            "supervisor", "  C echo: first request after settle (new caller, bench.echo 64 B)", unit: "ms",
            ours: cFirst, baselineName: "warm", baseline: cWarm, ratioName: "first/warm")
        report.add(
            "supervisor", "first restart after settle: kill -9 \(victim) → ready", unit: "ms", ours: firstRestarts,
            baselineName: "later restart", baseline: laterRestarts, ratioName: "first/later",
            target: .atMost(Self.target))
    }

    /// The suite's manifest with the victim's backoff 1 ms (the least a manifest allows) and its budget wide, so that both
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
            with: header
                + "backoff = { initial = \"1ms\", max = \"1ms\", multiplier = 1.0 }\nbudget = { restarts = 1000 }\n")
    }

    /// Milliseconds for a new caller to connect and have `clinics.nearest` answered.
    @discardableResult
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

    /// ``newCallerRequest(_:)``, with what the process `pid` used for it: its CPU over all its
    /// threads, the time they waited for a CPU, its page faults and the threads it started.
    private func newCallerRequest(_ suite: SupervisedSuite, measuring pid: Int32) async -> (
        Double, ProcessStats.Scheduling
    ) {
        guard let before = ProcessStats.scheduling(pid) else { fail("\(victim) ended before a request") }
        let milliseconds = await newCallerRequest(suite)
        guard let after = ProcessStats.scheduling(pid) else { fail("\(victim) ended after a request") }
        return (milliseconds, after.since(before))
    }

    /// Milliseconds for a new caller to connect and have the C echo answer `bench.echo` (64 B).
    private func echoRequest(_ sockets: SocketDirectory) async -> Double {
        let client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(20))
        defer { client.close() }
        let start = ContinuousClock.now
        do {
            _ = try await client.call(BenchEcho.echo, BenchEcho.Blob(size: 64))
        } catch {
            fail("the C echo failed: \(error)")
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
