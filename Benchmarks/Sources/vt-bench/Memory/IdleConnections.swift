import Foundation
import IOInterface
import VerticalsContract

/// Section 6, connections: one vertical's private dirty memory holding 1,000 idle client
/// connections, against the same process just before they were opened (both past its start-up
/// settle); RSS beside. Each round restarts the vertical first (through the supervisor), since
/// memory a process once used stays resident.
struct IdleConnections {
    let settings: BenchSettings
    let report: Report
    var vertical = "clinics"
    var count = 1_000

    /// What the suite it measures runs with: its one client (the bench's uid) may hold all of a
    /// vertical's connections, where a daemon's default holds one caller to far fewer.
    static let environment = ["VERTICALS_MAX_CONNECTIONS_PER_PEER": "1024"]

    func run(_ suite: SupervisedSuite) async {
        let path = suite.sockets.socketPath(for: vertical)
        var idle: [ProcessStats.Memory] = []
        var loaded: [ProcessStats.Memory] = []
        for round in 1...settings.rounds {
            progress("\(count) idle connections round \(round)/\(settings.rounds)")
            let pid = await restart(suite)
            // Past start-up's last allocations, so both readings are of a daemon that serves, and
            // the difference is the connections'.
            try? await Task.sleep(for: SupervisorBenchmark.settled)
            idle.append(Self.reading(pid, vertical))
            let baseFDs = Self.openDescriptors(pid)
            let sockets = Self.connect(count, to: path, server: path)
            // Every connection accepted and registered with the loop before memory is read.
            let deadline = ContinuousClock.now + .seconds(20)
            while !Self.holds(pid, count, over: baseFDs), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(20))
            }
            let held = Self.openDescriptors(pid) - baseFDs
            guard held >= count else { fail("\(vertical) holds \(held) of \(count) connections") }
            try? await Task.sleep(for: .milliseconds(500))
            loaded.append(Self.reading(pid, vertical))
            for fd in sockets { close(fd) }
        }
        report.add(
            "memory", "private dirty \(vertical) + \(count) idle connections", unit: "MiB",
            ours: loaded.map { $0.privateDirty / 1024 }, baselineName: "no connections",
            baseline: idle.map { $0.privateDirty / 1024 }, ratioName: "with/without")
        report.add(
            "memory", "  RSS (information)", unit: "MiB", ours: loaded.map { $0.rss / 1024 },
            baselineName: "no connections", baseline: idle.map { $0.rss / 1024 }, ratioName: "with/without")
        let perConnection = zip(loaded, idle).map { ($0.privateDirty - $1.privateDirty) / Double(count) }
        report.add("memory", "private dirty per idle connection (\(vertical))", unit: "KiB", Summary(perConnection))
        let pssPerConnection = zip(loaded, idle).map { ($0.pss - $1.pss) / Double(count) }
        report.add("memory", "  PSS per idle connection", unit: "KiB", Summary(pssPerConnection))
    }

    /// `pid`'s memory, or the run stops: the vertical ended during the round.
    static func reading(_ pid: Int32, _ name: String) -> ProcessStats.Memory {
        guard let memory = ProcessStats.memory(pid) else { fail("\(name) ended during the memory round") }
        return memory
    }

    /// Restarts the vertical and returns its new pid once it is ready again.
    private func restart(_ suite: SupervisedSuite) async -> Int32 {
        do {
            _ = try await suite.control.call(Supervisor.restart, .init(name: vertical), timeout: .seconds(30))
        } catch {
            fail("svc-supervisor restart \(vertical) failed: \(error)")
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let status = await suite.status().first(where: { $0.name == vertical }), status.ready,
                let pid = status.pid
            {
                return Int32(pid)
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        fail("\(vertical) was not ready again 30 s after a restart")
    }

    /// How many descriptors `pid` has open.
    static func openDescriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// `count` connections to the socket at `path`, opened one after another and sending
    /// nothing; the run stops when one cannot be made, naming it and `server`.
    static func connect(_ count: Int, to path: String, server: String) -> [Int32] {
        var sockets: [Int32] = []
        for _ in 0..<count {
            guard let fd = UnixSocket.connect(path) else { fail("connection \(sockets.count + 1) to \(server) failed") }
            sockets.append(fd)
        }
        return sockets
    }

    /// Whether `pid` holds `count` descriptors more than `baseline`: every connection accepted.
    static func holds(_ pid: Int32, _ count: Int, over baseline: Int) -> Bool {
        openDescriptors(pid) >= baseline + count
    }
}
