import Foundation
import Histogram

/// Issue 26 §1, every core: our echo server with `VERTICALS_LOOPS=2` against the same build with
/// `VERTICALS_LOOPS=1`, client and server unpinned (the server may use both cores), in the same
/// rounds: 4 × 64 throughput (target ≥ 1.6×), the server's CPU per request over that run
/// (≤ 1.1×) and 1-in-flight p50 latency (≤ 1.05×); beside it, the raw SwiftNIO echo on a
/// `MultiThreadedEventLoopGroup` of as many threads, driven by the C client (ours by our own).
struct LoopsBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    var latencyCount = 20_000
    var throughputSeconds = 1.0

    /// One 4 × 64 run: requests per second and the server's CPU microseconds per request.
    struct Load {
        var rate: Double
        var cpuMicrosecondsPerRequest: Double
    }

    func run() {
        var rates: [Int: [Double]] = [:]
        var cpu: [Int: [Double]] = [:]
        var p50: [Int: [Double]] = [:]
        var nio: [Double] = []
        for round in 1...settings.rounds {
            progress("rpc loops round \(round)/\(settings.rounds)")
            for loops in [1, 2] {
                let load = throughput(loops: loops)
                rates[loops, default: []].append(load.rate)
                cpu[loops, default: []].append(load.cpuMicrosecondsPerRequest)
                p50[loops, default: []].append(latencyP50(loops: loops))
            }
            nio.append(nioThroughput(threads: 2))
        }
        let section = "rpc loops (unpinned)"
        report.add(
            section, "4 conn × 64 in flight, 64 B: 2 loops vs 1", unit: "req/s", ours: rates[2]!,
            baselineName: "1 loop", baseline: rates[1]!, ratioName: "2/1", target: .atLeast(1.6))
        report.add(
            section, "server CPU per request at 4 × 64: 2 loops vs 1", unit: "µs", ours: cpu[2]!,
            baselineName: "1 loop", baseline: cpu[1]!, ratioName: "2/1", target: .atMost(1.1))
        report.add(
            section, "1 in flight p50, 64 B: 2 loops vs 1", unit: "µs", ours: p50[2]!, baselineName: "1 loop",
            baseline: p50[1]!, ratioName: "2/1", target: .atMost(1.05))
        report.add(
            section, "4 conn × 64 in flight: ours on 2 loops vs \(RPCBenchmark.Stack.nio.rawValue) on 2 threads",
            unit: "req/s", ours: rates[2]!, baselineName: "NIO", baseline: nio, ratioName: "ours/NIO")
    }

    private var environment: [String: String] { ["VERTICALS_SOCKET_DIR": directory, "VERTICALS_LOG_LEVEL": "warning"] }

    private func withServer<T>(loops: Int, _ body: (Int32) -> T) -> T {
        let socket = "\(directory)/\(BenchEcho.name).sock"
        unlink(socket)
        var environment = self.environment
        environment["VERTICALS_LOOPS"] = "\(loops)"
        let server = Subprocess.start(RPCBenchmark.ownExecutable, ["echo-server"], environment: environment)
        Subprocess.waitForListener(socket)
        defer { Subprocess.stop(server) }
        return body(server.processIdentifier)
    }

    private func throughput(loops: Int) -> Load {
        withServer(loops: loops) { pid in
            let before = ProcessStats.cpuSeconds(pid) ?? 0
            let line = Subprocess.run(
                RPCBenchmark.ownExecutable, ["echo-throughput", directory, "64", "4", "64", "\(throughputSeconds)"])
            let after = ProcessStats.cpuSeconds(pid) ?? 0
            let rate = RPCBenchmark.requestsPerSecond(printed: line, by: "ours")
            // The CPU covers the client's warm-up and wind-down too (about a quarter more time
            // than the counted second), alike for both counts; the ratio is what is judged.
            let requests = rate * (throughputSeconds + 0.25)
            return Load(rate: rate, cpuMicrosecondsPerRequest: (after - before) * 1_000_000 / max(1, requests))
        }
    }

    private func latencyP50(loops: Int) -> Double {
        let output = "\(directory)/loops-samples.bin"
        withServer(loops: loops) { _ in
            _ = Subprocess.run(RPCBenchmark.ownExecutable, ["echo-latency", directory, "64", "\(latencyCount)", output])
        }
        guard let data = FileManager.default.contents(atPath: output), data.count == latencyCount * 8 else {
            fail("the loops latency client wrote no samples")
        }
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000)
        data.withUnsafeBytes { for sample in $0.bindMemory(to: UInt64.self) { _ = histogram.record(sample) } }
        return Double(histogram.valueAtPercentile(50)) / 1000
    }

    private func nioThroughput(threads: Int) -> Double {
        let socket = "\(directory)/nio-loops.sock"
        let server = Subprocess.start(RPCBenchmark.ownExecutable, ["nio-echo-server", socket, "\(threads)"])
        Subprocess.waitForListener(socket)
        defer { Subprocess.stop(server) }
        let line = Subprocess.run(
            settings.uvEcho,
            [
                "throughput", socket, "\(BenchEcho.framePayloadLength(bodySize: 64))", "4", "64",
                "\(throughputSeconds)",
            ])
        return RPCBenchmark.requestsPerSecond(printed: line, by: "C client against NIO")
    }
}
