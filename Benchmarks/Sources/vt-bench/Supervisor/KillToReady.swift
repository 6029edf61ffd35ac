import Foundation
import IOInterface
import Synchronization
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor

/// Section 4, restarts: `kill -9` of a ready vertical → its replacement's `READY=1`, on the
/// supervisor's own clock (the engine's state-change events, in this process), against a bare
/// start of the same daemon to `READY=1` with no supervisor, interleaved sample by sample.
///
/// The vertical's backoff is set to zero and its budget made unlimited, so the figure is the
/// supervisor's latency (notice the exit, spawn through vt-exec, hand over the socket, hear
/// READY=1), not the wait the manifest asks for (100 ms first).
struct KillToReady {
    let settings: BenchSettings
    let report: Report
    let directory: String
    var victim = "clinics"

    func run() async {
        var services = BenchEngine.services([victim, "identity"], settings: settings)
        for index in services.indices where services[index].name == victim {
            services[index].backoff = Backoff(initial: .zero, max: .zero, multiplier: 1)
            services[index].budget = RestartBudget(maxRestarts: 100_000, window: .seconds(1))
        }
        let (engine, events, loop) = await BenchEngine.start(services, settings: settings, directory: directory)
        var ready = await events.wait(for: victim, .ready, count: 1)
        // Two kills a sample. The judged one finds the victim settled, 1.5 s after READY=1, as a
        // crash in service finds it; the other kills it 50 ms after READY=1, while start-up's
        // last work may still run, beside it for comparison.
        var restarts: [Double] = []
        var early: [Double] = []
        var bare: [Double] = []
        // Where a settled restart's time goes: the kernel's teardown of the killed process and the
        // engine's notice of its exit (kill → backoff), the spawn (backoff → starting: after the
        // exec), and the new process's own start (starting → READY=1), which a bare start is the
        // baseline of.
        var noticed: [Double] = []
        var spawned: [Double] = []
        var started: [Double] = []
        var restartCount = 0
        /// Kills the victim `after` its last READY=1 and waits for the next; the phases' times.
        func killAndWait(after: Duration) async -> (total: Double, noticed: Double, spawned: Double, started: Double) {
            guard let pid = ready.pid else { fail("\(victim) is ready without a pid") }
            try? await Task.sleep(for: after)
            let killedAt = ContinuousClock.now
            kill(pid, SIGKILL)
            restartCount += 1
            ready = await events.wait(for: victim, .ready, count: restartCount + 1)
            let backoff = await events.wait(for: victim, .backoff, count: restartCount)
            let starting = await events.wait(for: victim, .starting, count: restartCount + 1)
            return (
                (ready.at - killedAt).microseconds / 1000, (backoff.at - killedAt).microseconds / 1000,
                (starting.at - backoff.at).microseconds / 1000, (ready.at - starting.at).microseconds / 1000
            )
        }
        for sample in 1...settings.kills {
            if sample % 5 == 1 { progress("kill -9 → READY \(sample)/\(settings.kills)") }
            early.append(await killAndWait(after: .milliseconds(50)).total)
            let settled = await killAndWait(after: Self.settled)
            restarts.append(settled.total)
            noticed.append(settled.noticed)
            spawned.append(settled.spawned)
            started.append(settled.started)
            bare.append(BareStart(settings: settings, directory: directory, service: victim).toReady())
        }
        await engine.stopAll()
        await engine.close()
        loop.shutdown()
        report.add(
            "supervisor", "kill -9 → READY=1 (\(victim) settled, n=\(settings.kills))", unit: "ms", ours: restarts,
            baselineName: "bare start→READY", baseline: bare, ratioName: "restart/bare", target: .atMost(1.2))
        report.add("supervisor", "  kill -9 → exit noticed (teardown, SIGCHLD)", unit: "ms", Summary(noticed))
        report.add("supervisor", "  exit noticed → spawned (after exec)", unit: "ms", Summary(spawned))
        report.add(
            "supervisor", "  spawned → READY=1 (the new process's start)", unit: "ms", ours: started,
            baselineName: "bare start→READY", baseline: bare, ratioName: "start/bare")
        report.add(
            "supervisor", "kill -9 → READY=1 (\(victim) 50 ms after READY=1)", unit: "ms",
            ours: early, baselineName: "bare start→READY", baseline: bare, ratioName: "restart/bare")
    }

    /// How long after READY=1 the judged kill comes: past start-up's last work.
    static let settled = Duration.milliseconds(1500)
}

/// The engine's events, appended on its loop thread, awaited by the benchmark.
final class EngineEvents: Sendable {
    private let events = Mutex<[SupervisorEngine.Event]>([])

    func append(_ event: SupervisorEngine.Event) {
        events.withLock { $0.append(event) }
    }

    /// The `count`-th time `service` entered `state`; stops the run after 20 s without it.
    func wait(for service: String, _ state: Supervisor.ServiceState, count: Int) async -> SupervisorEngine.Event {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let matching = events.withLock { $0.filter { $0.service == service && $0.state == state } }
            if matching.count >= count { return matching[count - 1] }
            try? await Task.sleep(for: .milliseconds(1))
        }
        fail("\(service) did not become \(state) (\(count)×) within 20 s")
    }
}

/// A datagram socket a daemon sends its sd_notify messages to.
final class NotifyReceiver {
    let path: String
    private let fd: Int32

    init(path: String) {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0 else { fail("cannot bind the notify socket \(path)") }
    }

    /// Waits until a datagram holding the line READY=1 arrives.
    func waitForReady(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            if text.split(separator: "\n").contains("READY=1") { return true }
        }
        return false
    }

    func close() {
        Glibc.close(fd)
        unlink(path)
    }
}
