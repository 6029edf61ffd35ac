import BenchWindow
import Foundation
import Histogram

/// Every core: our echo server with `VERTICALS_LOOPS=2` against the same build with
/// `VERTICALS_LOOPS=1`, client and server unpinned (the server may use both cores), in the same
/// rounds: 4 × 64 throughput (target ≥ 1.6×), the server's CPU per request over its counting window
/// (≤ 1.1×) and 1-in-flight p50 latency (≤ 1.05×); beside it, the raw SwiftNIO echo on a
/// `MultiThreadedEventLoopGroup` of as many threads. Throughput is driven twice: by the C client
/// sending our frames (the judged rows: it leaves the cores to the server) and by our own client.
struct LoopsBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    var latencyCount = 20_000
    var throughputSeconds = 1.0

    /// One 4 × 64 run: requests per second, and the server's and the client's CPU microseconds per request.
    struct Load {
        var rate: Double
        var cpuMicrosecondsPerRequest: Double
        var clientCPUMicrosecondsPerRequest: Double
    }

    func run() {
        var rates: [Int: [Double]] = [:]
        var cpu: [Int: [Double]] = [:]
        var p50: [Int: [Double]] = [:]
        var cRates: [Int: [Double]] = [:]
        var cCPU: [Int: [Double]] = [:]
        var bound: [Double] = []
        var nio: [Double] = []
        for round in 1...settings.rounds {
            progress("rpc loops round \(round)/\(settings.rounds)")
            var cLoads: [Int: Load] = [:]
            for loops in [1, 2] {
                let load = throughput(loops: loops, client: .ours)
                rates[loops, default: []].append(load.rate)
                cpu[loops, default: []].append(load.cpuMicrosecondsPerRequest)
                let cLoad = throughput(loops: loops, client: .c)
                cLoads[loops] = cLoad
                cRates[loops, default: []].append(cLoad.rate)
                cCPU[loops, default: []].append(cLoad.cpuMicrosecondsPerRequest)
                p50[loops, default: []].append(latencyP50(loops: loops))
            }
            // What two cores allow the 2/1 ratio when the client shares them: one loop is bound
            // by the server's CPU per request (s1; the client has the other core), two loops by
            // both programs' together on both cores (s2 + c2), so 2/1 ≤ 2·s1 / (s2 + c2).
            if let one = cLoads[1], let two = cLoads[2] {
                bound.append(
                    2 * one.cpuMicrosecondsPerRequest
                        / max(0.001, two.cpuMicrosecondsPerRequest + two.clientCPUMicrosecondsPerRequest))
            }
            nio.append(nioThroughput(threads: 2))
        }
        let section = "rpc loops (unpinned)"
        // The C client sends our request frames (`uv_echo throughput-frame`): it costs a fraction
        // of ours, so the server, not the client, bounds the rate on two cores.
        report.add(
            section, "4 conn × 64 in flight, 64 B, C client: 2 loops vs 1", unit: "req/s", ours: cRates[2]!,
            baselineName: "1 loop", baseline: cRates[1]!, ratioName: "2/1", target: .atLeast(1.6))
        report.add(
            section, "server CPU per request at 4 × 64, C client: 2 loops vs 1", unit: "µs", ours: cCPU[2]!,
            baselineName: "1 loop", baseline: cCPU[1]!, ratioName: "2/1", target: .atMost(1.1))
        report.add(
            section,
            "  what \(ProcessInfo.processInfo.activeProcessorCount) vCPUs allow 2/1 with the C client beside: 2·s1/(s2+c2)",
            unit: "×", Summary(bound))
        report.add(
            section, "  2/1 against what the vCPUs allow", unit: "×",
            Summary(zip(cRates[2]!, cRates[1]!).enumerated().map { index, rates in rates.0 / rates.1 / bound[index] }))
        report.add(
            section, "4 conn × 64 in flight, 64 B, our client: 2 loops vs 1", unit: "req/s", ours: rates[2]!,
            baselineName: "1 loop", baseline: rates[1]!, ratioName: "2/1")
        report.add(
            section, "server CPU per request at 4 × 64, our client: 2 loops vs 1", unit: "µs", ours: cpu[2]!,
            baselineName: "1 loop", baseline: cpu[1]!, ratioName: "2/1")
        report.add(
            section, "1 in flight p50, 64 B: 2 loops vs 1", unit: "µs", ours: p50[2]!, baselineName: "1 loop",
            baseline: p50[1]!, ratioName: "2/1", target: .atMost(1.05))
        report.add(
            section,
            "4 conn × 64 in flight, C client: ours on 2 loops vs \(RPCBenchmark.Stack.nio.rawValue) on 2 threads",
            unit: "req/s", ours: cRates[2]!, baselineName: "NIO", baseline: nio, ratioName: "ours/NIO",
            target: .atLeast(0.65))
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

    enum Client { case ours, c }

    /// One 4 × 64 run of `client` against a server of `loops` loops. Both clients read both
    /// ends' CPU as their counting window opens and closes (``WindowCPU``), so neither start-up,
    /// warm-up nor wind-down counts in the CPU per request.
    private func throughput(loops: Int, client: Client) -> Load {
        withServer(loops: loops) { pid in
            let environment = [WindowCPU.serverVariable: "\(pid)"]
            let line =
                switch client {
                case .ours:
                    Subprocess.run(
                        RPCBenchmark.ownExecutable,
                        ["echo-throughput", directory, "64", "4", "64", "\(throughputSeconds)"],
                        environment: environment)
                case .c:
                    Subprocess.run(
                        settings.uvEcho,
                        [
                            "throughput-frame", "\(directory)/\(BenchEcho.name).sock", requestFrameFile(), "4", "64",
                            "\(throughputSeconds)",
                        ], environment: environment)
                }
            let fields = RPCBenchmark.fields(printed: line)
            guard let requests = fields["requests"], let server = fields["server_cpu"],
                let clientCPU = fields["client_cpu"]
            else { fail("the \(client) throughput client printed no CPU of its window: \(line)") }
            return Load(
                rate: RPCBenchmark.requestsPerSecond(printed: line, by: "ours"),
                cpuMicrosecondsPerRequest: server * 1_000_000 / max(1, requests),
                clientCPUMicrosecondsPerRequest: clientCPU * 1_000_000 / max(1, requests))
        }
    }

    /// Our 64-byte echo request as one frame in a file, for the C client (written once).
    private func requestFrameFile() -> String {
        let path = "\(directory)/loops-request.frame"
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: Data(BenchEcho.requestFrame(bodySize: 64)))
            else { fail("cannot write \(path)") }
        }
        return path
    }

    private func latencyP50(loops: Int) -> Double {
        let output = "\(directory)/loops-samples.bin"
        withServer(loops: loops) { _ in
            _ = Subprocess.run(
                RPCBenchmark.ownExecutable, ["echo-latency", directory, "64", "\(latencyCount)", output])
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
