import Foundation
import VerticalsEventLoop

/// Section "curves", connections: our echo server (``EchoRoles/server()``, a real host like a
/// vertical's: DaemonMain, ServiceHost, Router, async handler) holding from 64 to 10,000 client
/// connections, of which 64 call and the rest are idle, with `VERTICALS_MAX_CONNECTIONS` and
/// `VERTICALS_MAX_CONNECTIONS_PER_PEER` raised to admit them all (one caller, the bench's uid,
/// holds every one). An idle connection made one call and then sits open, as a client that
/// called once does. The 64 active are 64 typed clients, one call in flight each, for
/// ``seconds``: the p50 and p99 of their round trips. Private dirty memory per connection is the
/// server's growth from its settled start to holding them all, over the connections, read halfway
/// through a second, shorter run of the same calls (so the active connections' buffers count
/// too): reading it lists the server's descriptors and walks its mappings, work that would
/// otherwise compete with the timed calls for the processors. Each point starts the
/// server afresh, since memory a process once used stays resident; the points interleaved round
/// by round. The quick run takes 64, 1,000 and 10,000; the full run adds 256 and 3,000.
///
/// Nothing a call costs should grow with the connections the loop also holds: p50, p99 and the
/// memory per connection constant.
struct ConnectionsCurve {
    let settings: BenchSettings
    let report: Report
    let directory: String
    /// The connections that call, among all those held.
    static let active = 64
    /// How long the active connections call at each point, for their round trips.
    static let seconds = 2.0
    /// How long they call again while the server's memory is read, halfway through.
    static let memorySeconds = 1.0
    /// Descriptors beyond the connections a process needs (its listener, logs, the event loop's):
    /// the bench and the server each hold the connections and this many more, at most.
    static let headroom = 128

    var counts: [Int] { settings.rounds <= 2 ? [64, 1_000, 10_000] : [64, 256, 1_000, 3_000, 10_000] }

    func run() {
        let limit = DescriptorLimit.raiseToHard()
        let counts = counts.filter { $0 + Self.headroom <= limit }
        if counts.count < self.counts.count {
            let message =
                "curves connections: RLIMIT_NOFILE's hard limit is \(limit), so the curve stops at "
                + "\(counts.last.map { "\($0)" } ?? "none") connections (raise it, e.g. `ulimit -Hn 20000`, for 10,000)"
            progress(message)
            report.note(message)
        }
        guard counts.count >= 2 else { return }
        ProcessStats.cleanFilePages()
        // Room for every connection and the listener probes, the same at every point.
        let admitted = "\(counts.last! + Self.headroom)"
        let environment = ["VERTICALS_MAX_CONNECTIONS": admitted, "VERTICALS_MAX_CONNECTIONS_PER_PEER": admitted]
        let rpc = RPCBenchmark(settings: settings, report: report, directory: directory)
        var p50 = [[Double]](repeating: [], count: counts.count)
        var p99 = p50
        var perConnection = p50
        settings.interleaved("curves: connections", points: counts.count) { index in
            rpc.withServer(.ours, cpu: nil, environment: environment) { socketDirectory, pid in
                let point = measure(connections: counts[index], socketDirectory: socketDirectory, server: pid)
                p50[index].append(point.p50)
                p99[index].append(point.p99)
                perConnection[index].append(point.privateDirtyPerConnection)
            }
        }
        let points = counts.map(Double.init)
        let work = "connections to our echo server (\(Self.active) active; both connection limits \(admitted))"
        func curve(_ name: String, _ unit: String, _ values: [[Double]]) {
            report.addCurve(
                "curves", Curve(name: name, work: work, unit: unit, points: points, values: values.map(Summary.init)))
        }
        curve("p50 of the active", "µs", p50)
        curve("p99 of the active", "µs", p99)
        curve("private dirty per connection", "KiB", perConnection)
    }

    /// What one point measured.
    struct Point {
        var p50: Double
        var p99: Double
        var privateDirtyPerConnection: Double
    }

    /// Holds `connections` on the server `pid` listening in `socketDirectory`, the active ones
    /// calling: once for their round trips, with nothing else running, then again while the
    /// server's memory is read halfway through their calls.
    private func measure(connections: Int, socketDirectory: String, server pid: Int32) -> Point {
        // Past start-up's last allocations, so the growth is the connections'.
        usleep(1_500_000)
        let settled = memory(pid)
        let descriptors = IdleConnections.openDescriptors(pid)
        let path = RPCBenchmark.socketPath(.ours, in: socketDirectory)
        let idle = (0..<(connections - Self.active)).map { _ in Self.calledOnce(path) }
        defer { for fd in idle { close(fd) } }
        func calls(_ seconds: Double) -> Process {
            Subprocess.start(
                RPCBenchmark.ownExecutable,
                ["echo-throughput", socketDirectory, "64", "\(Self.active)", "1", "\(seconds)", "timed"],
                captureOutput: true)
        }
        let line = Subprocess.finish(calls(Self.seconds))
        let again = calls(Self.memorySeconds)
        // The client's 0.25 s of warm-up, then half its calls.
        usleep(useconds_t((0.25 + Self.memorySeconds / 2) * 1_000_000))
        let held = IdleConnections.openDescriptors(pid) - descriptors
        let loaded = memory(pid)
        _ = Subprocess.finish(again)
        guard held >= connections else { fail("the echo server held \(held) of \(connections) connections") }
        return Point(
            p50: InFlightCurve.percentile("p50", printed: line), p99: InFlightCurve.percentile("p99", printed: line),
            privateDirtyPerConnection: (loaded.privateDirty - settled.privateDirty) / Double(connections))
    }

    private func memory(_ pid: Int32) -> ProcessStats.Memory {
        guard let memory = ProcessStats.memory(pid) else { fail("the echo server ended during the connections curve") }
        return memory
    }

    /// A connection to the echo at `path` that has made one call (an empty body) and read its
    /// answer: admitted, past its handshake, its buffers once used.
    static func calledOnce(_ path: String) -> Int32 {
        guard let fd = UnixSocket.connect(path) else { fail("a connection to \(path) failed") }
        let frame = request
        let written = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == frame.count else { fail("a call on an idle connection to \(path) was not sent") }
        // The answer: a 4-byte big-endian length, then that many bytes.
        guard let header = read(fd, count: 4) else { fail("an idle connection to \(path) got no answer") }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard read(fd, count: length) != nil else { fail("an idle connection to \(path) got half an answer") }
        return fd
    }

    /// The request frame an idle connection sends once.
    private static let request = BenchEcho.requestFrame(bodySize: 0)

    /// Exactly `count` bytes from `fd`, or nil at its end or on an error.
    private static func read(_ fd: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            guard got > 0 else { return nil }
            filled += got
        }
        return bytes
    }
}
