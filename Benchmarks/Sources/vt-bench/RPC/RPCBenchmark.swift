import BenchWindow
import Foundation
import Histogram
import Synchronization

/// Sections 2 and 3: request/response latency (one in flight; 64 B and 1 KiB bodies) and
/// throughput (1 × 64 and 4 × 64 in flight) of our full stack in two processes, against the C
/// libuv echo in the same rounds. Latency runs with both processes on one vCPU and on two
/// (a cross-vCPU wake-up costs 20–25 µs here whatever the stack); throughput on two. The same raw
/// echo on SwiftNIO runs in the same rounds too: what a Swift stack costs over C before any
/// envelope, codec or async handler (see ``NIOEcho``). And so does the peer a Swift team would
/// pick for typed calls between local services: gRPC Swift 2, a unary echo over HTTP/2 on a Unix
/// domain socket (`vt-grpc-echo`, a pass-through serializer of the same payloads, no protobuf),
/// with its 1 × 64 throughput, both sides' CPU per request, and its server's memory idle and
/// holding 1,000 connections (``runServerMemory()``). Beside it, gRPC tuned: NIO's shared group as
/// Swift's global executor at both ends, flush coalescing on and off, pinned like ours and
/// unpinned; the targets against gRPC hold ours to the best of its configurations at each figure.
struct RPCBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    var latencyCount = 20_000
    /// The samples of a tuned gRPC latency run: its four configurations at each placement would
    /// otherwise double the section's time, and the p50 they are judged on settles well before.
    var tunedGRPCLatencyCount: Int { latencyCount / 4 }
    var throughputSeconds = 1.0
    /// What each tuned gRPC process answered on NIO taking over Swift's global executor.
    let nioExecutor = NIOExecutorAnswers()

    struct Placement {
        var name: String
        /// The vCPU taskset pins the server to; nil, none.
        var serverCPU: Int?
        /// The vCPU taskset pins the client to; nil, none.
        var clientCPU: Int?
    }

    enum Stack: String {
        case c = "C libuv echo"
        case ours = "ours"
        /// Our server timed by the C client sending our request frames: the server's share of the gap.
        case oursServer = "our server, C client"
        /// Our client timed against the C echo answering as a response: the client's share.
        case oursClient = "our client, C server"
        /// The C echo's raw frames, on SwiftNIO at both ends: the Swift reference point.
        case nio = "SwiftNIO raw echo"
        /// gRPC Swift 2's unary echo over HTTP/2 on a Unix socket, at both ends: the peer.
        case grpc = "gRPC Swift 2"
        /// The peer tuned: NIO's shared group as Swift's global executor too, flush coalescing on.
        case grpcTuned = "gRPC Swift 2 tuned"
        /// The peer tuned, flush coalescing off.
        case grpcTunedUncoalesced = "gRPC Swift 2 tuned, flushes uncoalesced"

        /// The tuned peer's two settings of flush coalescing, measured both to keep the better.
        static let tunedGRPC: [Stack] = [.grpcTuned, .grpcTunedUncoalesced]

        /// `vt-grpc-echo`'s SETUP for this stack in a run measuring `measure` (`latency` or
        /// `throughput`, which pick the untuned peer's flush coalescing); nil for the other stacks.
        func grpcSetup(_ measure: String) -> String? {
            switch self {
            case .grpc: measure
            case .grpcTuned: "tuned-coalesced"
            case .grpcTunedUncoalesced: "tuned-uncoalesced"
            case .c, .ours, .oursServer, .oursClient, .nio: nil
            }
        }
    }

    /// The stacks timed at `placement`: with one vCPU (where the p50 target is hardest), also
    /// each half of ours against the C other half, so the report says which side the gap is on.
    /// Unpinned, only the tuned peer: its threads on both vCPUs.
    static func latencyStacks(_ placement: Placement) -> [Stack] {
        if placement.serverCPU == nil { return Stack.tunedGRPC }
        return placement.serverCPU == placement.clientCPU
            ? [.c, .ours, .nio, .grpc] + Stack.tunedGRPC + [.oursServer, .oursClient]
            : [.c, .ours, .nio, .grpc] + Stack.tunedGRPC
    }

    static let placements = [
        Placement(name: "same vCPU", serverCPU: 0, clientCPU: 0),
        Placement(name: "cross vCPU", serverCPU: 0, clientCPU: 1),
    ]
    /// Neither end pinned: the tuned gRPC peer's threads free on every vCPU.
    static let unpinned = Placement(name: "unpinned", serverCPU: nil, clientCPU: nil)
    static let sizes = [64, 1024]
    static let loads = [(connections: 1, depth: 64), (connections: 4, depth: 64)]

    func runLatency() {
        // [placement][size][stack] → per-round percentiles, and one histogram over all rounds.
        var p50: [String: [Double]] = [:]
        var p99: [String: [Double]] = [:]
        var p999: [String: [Double]] = [:]
        var merged: [String: Histogram<UInt64>] = [:]
        for round in 1...settings.rounds {
            progress("rpc latency round \(round)/\(settings.rounds)")
            for placement in Self.placements + [Self.unpinned] {
                for size in Self.sizes {
                    for stack in Self.latencyStacks(placement) {
                        let key = "\(stack.rawValue) \(Self.label(size)) \(placement.name)"
                        let samples = latencySamples(stack, size: size, placement: placement)
                        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000)
                        for sample in samples { _ = histogram.record(sample) }
                        p50[key, default: []].append(Double(histogram.valueAtPercentile(50)) / 1000)
                        p99[key, default: []].append(Double(histogram.valueAtPercentile(99)) / 1000)
                        p999[key, default: []].append(Double(histogram.valueAtPercentile(99.9)) / 1000)
                        merged[key, default: Histogram<UInt64>(highestTrackableValue: 60_000_000_000)].add(histogram)
                    }
                }
            }
        }
        for placement in Self.placements {
            for size in Self.sizes {
                let ours = "\(Stack.ours.rawValue) \(Self.label(size)) \(placement.name)"
                let c = "\(Stack.c.rawValue) \(Self.label(size)) \(placement.name)"
                let nio = "\(Stack.nio.rawValue) \(Self.label(size)) \(placement.name)"
                let grpc = "\(Stack.grpc.rawValue) \(Self.label(size)) \(placement.name)"
                let name = "\(Self.label(size)) \(placement.name)"
                report.add(
                    "rpc latency", "\(name) p50", unit: "µs", ours: p50[ours]!, baselineName: "C", baseline: p50[c]!,
                    ratioName: "ours/C", target: .atMost(1.15))
                report.add(
                    "rpc latency", "\(name) p99", unit: "µs", ours: p99[ours]!, baselineName: "C", baseline: p99[c]!,
                    ratioName: "ours/C")
                report.add(
                    "rpc latency", "\(name) p99.9", unit: "µs", ours: p999[ours]!, baselineName: "C",
                    baseline: p999[c]!, ratioName: "ours/C")
                report.add(
                    "rpc latency", "\(name) p50, \(Stack.nio.rawValue)", unit: "µs", ours: p50[nio]!,
                    baselineName: "C", baseline: p50[c]!, ratioName: "NIO/C")
                report.add(
                    "rpc latency", "\(name) p50, ours against \(Stack.nio.rawValue)", unit: "µs", ours: p50[ours]!,
                    baselineName: "NIO", baseline: p50[nio]!, ratioName: "ours/NIO")
                report.add(
                    "rpc latency", "\(name) p50, ours against \(Stack.grpc.rawValue)", unit: "µs", ours: p50[ours]!,
                    baselineName: "gRPC", baseline: p50[grpc]!, ratioName: "ours/gRPC")
                report.add(
                    "rpc latency", "\(name) p99, ours against \(Stack.grpc.rawValue)", unit: "µs", ours: p99[ours]!,
                    baselineName: "gRPC", baseline: p99[grpc]!, ratioName: "ours/gRPC")
                report.add(
                    "rpc latency", "\(name) p50, \(Stack.grpc.rawValue)", unit: "µs", ours: p50[grpc]!,
                    baselineName: "C", baseline: p50[c]!, ratioName: "gRPC/C")
                for half in Self.latencyStacks(placement) where half == .oursServer || half == .oursClient {
                    report.add(
                        "rpc latency", "\(name) p50, \(half.rawValue)", unit: "µs",
                        ours: p50["\(half.rawValue) \(Self.label(size)) \(placement.name)"]!, baselineName: "C",
                        baseline: p50[c]!, ratioName: "ours/C")
                }
                addTunedGRPC(
                    "rpc latency", "\(name) p50", unit: "µs", ours: p50[ours]!, lowerIsBetter: true,
                    target: .atMost(Self.grpcLatencyTarget)
                ) { stack, at in p50["\(stack.rawValue) \(Self.label(size)) \((at ?? placement).name)"]! }
                addTunedGRPC(
                    "rpc latency", "\(name) p99", unit: "µs", ours: p99[ours]!, lowerIsBetter: true, target: nil
                ) { stack, at in p99["\(stack.rawValue) \(Self.label(size)) \((at ?? placement).name)"]! }
                for key in [ours, c, nio, grpc] {
                    let points = merged[key]!.percentiles(ticksPerHalfDistance: 5).map {
                        [$0.percentile, Double($0.value) / 1000]
                    }
                    report.addDistribution(key, points)
                }
            }
        }
        report.note("rpc latency: \(nioExecutor.takeSummary())")
    }

    /// Requests per second at each load for the C echo and ours, and at 1 × 64 for gRPC too
    /// (as first set up, tuned, and tuned unpinned), with the server's and the client's CPU per
    /// request of each run.
    func runThroughput() {
        var loads: [String: [Load]] = [:]
        let placement = Self.placements[1]
        for round in 1...settings.rounds {
            progress("rpc throughput round \(round)/\(settings.rounds)")
            for load in Self.loads {
                let runs: [(Stack, Placement)] =
                    load.connections == 1
                    ? ([Stack.c, .ours, .grpc] + Stack.tunedGRPC).map { ($0, placement) }
                        + Stack.tunedGRPC.map { ($0, Self.unpinned) }
                    : [(.c, placement), (.ours, placement)]
                for (stack, at) in runs {
                    let key =
                        "\(stack.rawValue) \(load.connections)×\(load.depth)\(at.serverCPU == nil ? " unpinned" : "")"
                    loads[key, default: []].append(
                        throughput(stack, connections: load.connections, depth: load.depth, placement: at))
                }
            }
        }
        for load in Self.loads {
            let name = "\(load.connections) conn × \(load.depth) in flight, 64 B"
            report.add(
                "rpc throughput", name, unit: "req/s",
                ours: loads["ours \(load.connections)×\(load.depth)"]!.map(\.rate),
                baselineName: "C",
                baseline: loads["\(Stack.c.rawValue) \(load.connections)×\(load.depth)"]!.map(\.rate),
                ratioName: "ours/C", target: load.connections == 1 ? .atLeast(0.5) : nil)
        }
        let (ours, c, grpc) = (
            loads["ours 1×64"]!, loads["\(Stack.c.rawValue) 1×64"]!, loads["\(Stack.grpc.rawValue) 1×64"]!
        )
        report.add(
            "rpc throughput", "1 conn × 64 in flight, 64 B, ours against \(Stack.grpc.rawValue)", unit: "req/s",
            ours: ours.map(\.rate), baselineName: "gRPC", baseline: grpc.map(\.rate), ratioName: "ours/gRPC")
        report.add(
            "rpc throughput", "  \(Stack.grpc.rawValue) against C", unit: "req/s", ours: grpc.map(\.rate),
            baselineName: "C", baseline: c.map(\.rate), ratioName: "gRPC/C")
        for side in ["server", "client"] {
            let cpu: (Load) -> Double = { side == "server" ? $0.serverMicroseconds : $0.clientMicroseconds }
            report.add(
                "rpc throughput", "\(side) CPU per request at 1 × 64, ours against \(Stack.grpc.rawValue)", unit: "µs",
                ours: ours.map(cpu), baselineName: "gRPC", baseline: grpc.map(cpu), ratioName: "ours/gRPC")
            report.add(
                "rpc throughput", "  \(side) CPU per request, ours against C", unit: "µs", ours: ours.map(cpu),
                baselineName: "C", baseline: c.map(cpu), ratioName: "ours/C")
        }
        let tuned = { (stack: Stack, at: Placement?) in loads["\(stack.rawValue) 1×64\(at == nil ? "" : " unpinned")"]!
        }
        addTunedGRPC(
            "rpc throughput", "1 conn × 64 in flight, 64 B", unit: "req/s", ours: ours.map(\.rate),
            lowerIsBetter: false,
            target: .atLeast(Self.grpcThroughputTarget)
        ) { tuned($0, $1).map(\.rate) }
        addTunedGRPC(
            "rpc throughput", "server CPU per request at 1 × 64", unit: "µs", ours: ours.map(\.serverMicroseconds),
            lowerIsBetter: true, target: .atMost(Self.grpcCPUTarget)
        ) { tuned($0, $1).map(\.serverMicroseconds) }
        addTunedGRPC(
            "rpc throughput", "client CPU per request at 1 × 64", unit: "µs", ours: ours.map(\.clientMicroseconds),
            lowerIsBetter: true, target: .atMost(Self.grpcCPUTarget)
        ) { tuned($0, $1).map(\.clientMicroseconds) }
        report.note("rpc throughput: \(nioExecutor.takeSummary())")
    }

    /// The tuned peer's rows of one figure, `name`: the tuned peer pinned like ours and unpinned,
    /// each with the better of its two flush coalescing settings, against the peer as first set
    /// up; then ours against the best of all the gRPC configurations, which the target (if any) judges. A
    /// note says which flush coalescing won and which configuration is the best. `figure` gives
    /// a configuration's values by round.
    func addTunedGRPC(
        _ section: String, _ name: String, unit: String, ours: [Double], lowerIsBetter: Bool, target: Target?,
        _ figure: (Stack, Placement?) -> [Double]
    ) {
        let better = { (a: [Double], b: [Double]) in
            lowerIsBetter ? Summary(a).median <= Summary(b).median : Summary(a).median >= Summary(b).median
        }
        let untuned = figure(.grpc, nil)
        var best = (values: untuned, label: "as first set up")
        var won: [String] = []
        for at in [nil, Self.unpinned] {
            let label = "\(Stack.grpcTuned.rawValue)\(at == nil ? "" : ", \(Self.unpinned.name)")"
            let (on, off) = (figure(.grpcTuned, at), figure(.grpcTunedUncoalesced, at))
            let winner = better(on, off) ? on : off
            report.add(
                section, "\(name), \(label)", unit: unit, ours: winner, baselineName: "gRPC", baseline: untuned,
                ratioName: "tuned/gRPC")
            report.add(
                section, "  flush coalescing on against off", unit: unit, ours: on, baselineName: "off", baseline: off,
                ratioName: "on/off")
            let coalescing = "flush coalescing \(better(on, off) ? "on" : "off")"
            won.append("\(better(on, off) ? "on" : "off") won \(at == nil ? "pinned" : "unpinned")")
            if better(winner, best.values) {
                best = (winner, "tuned \(at == nil ? "pinned" : "unpinned"), \(coalescing)")
            }
        }
        report.add(
            section, "\(name), ours against gRPC at its best", unit: unit, ours: ours, baselineName: "gRPC best",
            baseline: best.values, ratioName: "ours/gRPC", target: target)
        report.note(
            "\(section) \(name): gRPC tuned, flush coalescing \(won.joined(separator: ", ")); gRPC at its best: \(best.label)"
        )
    }

    /// Ours against gRPC Swift 2: p50 at most, requests per second at least, CPU per request at most.
    static let grpcLatencyTarget = 0.3
    static let grpcThroughputTarget = 3.0
    static let grpcCPUTarget = 0.3

    /// One throughput run: requests per second, and the server's and the client's CPU
    /// microseconds per request counted (``WindowCPU``: the server's `/proc/PID/stat` and the
    /// client's own `getrusage`, read by the client as its counting window opens and closes).
    struct Load {
        var rate: Double
        var serverMicroseconds: Double
        var clientMicroseconds: Double
    }

    // MARK: One run

    private func latencySamples(_ stack: Stack, size: Int, placement: Placement) -> [UInt64] {
        let output = "\(directory)/samples.bin"
        let count = Stack.tunedGRPC.contains(stack) ? tunedGRPCLatencyCount : latencyCount
        withServer(stack, cpu: placement.serverCPU) { socketDirectory, _ in
            switch stack {
            case .c:
                _ = Subprocess.run(
                    settings.uvEcho,
                    [
                        "latency", "\(socketDirectory)/c.sock", "\(BenchEcho.framePayloadLength(bodySize: size))",
                        "\(latencyCount)", output,
                    ], cpu: placement.clientCPU)
            case .ours, .oursClient:
                _ = Subprocess.run(
                    Self.ownExecutable, ["echo-latency", socketDirectory, "\(size)", "\(latencyCount)", output],
                    cpu: placement.clientCPU)
            case .grpc, .grpcTuned, .grpcTunedUncoalesced:
                let printed = Subprocess.run(
                    settings.grpcEcho,
                    [
                        "latency", "\(socketDirectory)/grpc.sock", stack.grpcSetup("latency")!, "\(size)",
                        "\(count)", output,
                    ], cpu: placement.clientCPU)
                nioExecutor.record(printed, by: stack)
            case .nio:
                _ = Subprocess.run(
                    Self.ownExecutable,
                    [
                        "nio-echo-latency", "\(socketDirectory)/nio.sock",
                        "\(BenchEcho.framePayloadLength(bodySize: size))", "\(latencyCount)", output,
                    ], cpu: placement.clientCPU)
            case .oursServer:
                _ = Subprocess.run(
                    settings.uvEcho,
                    [
                        "latency-frame", "\(socketDirectory)/\(BenchEcho.name).sock",
                        Self.requestFrameFile(size, in: directory),
                        "\(latencyCount)", output,
                    ], cpu: placement.clientCPU)
            }
        }
        guard let data = FileManager.default.contents(atPath: output), data.count == count * 8 else {
            fail("the \(stack.rawValue) latency client wrote no samples")
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: UInt64.self)) }
    }

    private func throughput(_ stack: Stack, connections: Int, depth: Int, placement: Placement) -> Load {
        var line = ""
        withServer(stack, cpu: placement.serverCPU, mode: "throughput") { socketDirectory, server in
            // Each client reads both ends' CPU as its counting window opens and closes.
            let environment = [WindowCPU.serverVariable: "\(server)"]
            switch stack {
            case .c:
                line = Subprocess.run(
                    settings.uvEcho,
                    [
                        "throughput", "\(socketDirectory)/c.sock", "\(BenchEcho.framePayloadLength(bodySize: 64))",
                        "\(connections)", "\(depth)", "\(throughputSeconds)",
                    ], cpu: placement.clientCPU, environment: environment)
            case .grpc, .grpcTuned, .grpcTunedUncoalesced:
                line = Subprocess.run(
                    settings.grpcEcho,
                    [
                        "throughput", "\(socketDirectory)/grpc.sock", stack.grpcSetup("throughput")!, "64",
                        "\(connections)", "\(depth)", "\(throughputSeconds)",
                    ], cpu: placement.clientCPU, environment: environment)
                nioExecutor.record(line, by: stack)
            case .nio:
                fail("throughput is timed for the C echo, ours and gRPC only")
            case .ours, .oursServer, .oursClient:
                line = Subprocess.run(
                    Self.ownExecutable,
                    ["echo-throughput", socketDirectory, "64", "\(connections)", "\(depth)", "\(throughputSeconds)"],
                    cpu: placement.clientCPU, environment: environment)
            }
        }
        let fields = Self.fields(printed: line)
        guard let requests = fields["requests"], let server = fields["server_cpu"], let client = fields["client_cpu"]
        else { fail("the \(stack.rawValue) throughput client printed no CPU of its window: \(line)") }
        return Load(
            rate: Self.requestsPerSecond(printed: line, by: stack.rawValue),
            serverMicroseconds: server * 1_000_000 / max(1, requests),
            clientMicroseconds: client * 1_000_000 / max(1, requests))
    }

    /// Runs `body` with the folder and pid of `stack`'s echo server while it listens in
    /// `directory`, pinned to `cpu` (the gRPC server with its `mode`'s settings).
    func withServer(
        _ stack: Stack, cpu: Int?, mode: String = "latency", environment: [String: String] = [:],
        _ body: (String, Int32) -> Void
    ) {
        let server: Process
        let socket: String
        switch stack {
        case .c:
            socket = "\(directory)/c.sock"
            server = Subprocess.start(settings.uvEcho, ["server", socket], cpu: cpu)
        case .ours, .oursServer:
            socket = "\(directory)/\(BenchEcho.name).sock"
            unlink(socket)
            server = Subprocess.start(
                Self.ownExecutable, ["echo-server"], cpu: cpu,
                environment: environment.merging(["VERTICALS_SOCKET_DIR": directory, "VERTICALS_LOG_LEVEL": "warning"])
                {
                    _, fixed in fixed
                })
        case .nio:
            socket = "\(directory)/nio.sock"
            server = Subprocess.start(Self.ownExecutable, ["nio-echo-server", socket], cpu: cpu)
        case .grpc, .grpcTuned, .grpcTunedUncoalesced:
            socket = "\(directory)/grpc.sock"
            unlink(socket)
            server = Subprocess.start(
                settings.grpcEcho, ["server", socket, stack.grpcSetup(mode)!], cpu: cpu,
                captureOutput: Stack.tunedGRPC.contains(stack))
        case .oursClient:
            socket = "\(directory)/\(BenchEcho.name).sock"
            unlink(socket)
            let kind = BenchEcho.responseKindByte
            server = Subprocess.start(settings.uvEcho, ["server", socket, "\(kind.offset)", "\(kind.value)"], cpu: cpu)
        }
        Subprocess.waitForListener(socket)
        if Stack.tunedGRPC.contains(stack), let output = server.standardOutput as? Pipe {
            // A tuned server's first line, printed before it listens.
            nioExecutor.record(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self), by: stack)
        }
        body(directory, server.processIdentifier)
        Subprocess.stop(server)
    }

    /// A file in `directory` holding our request frame with a `size`-byte body, for the C client
    /// (written once).
    static func requestFrameFile(_ size: Int, in directory: String) -> String {
        let path = "\(directory)/request-\(size).frame"
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: Data(BenchEcho.requestFrame(bodySize: size)))
            else {
                fail("cannot write \(path)")
            }
        }
        return path
    }

    /// The numeric `NAME=VALUE` fields of what a client printed.
    static func fields(printed line: String) -> [String: Double] {
        Dictionary(
            uniqueKeysWithValues: line.split(whereSeparator: \.isWhitespace).compactMap { field -> (String, Double)? in
                let parts = field.split(separator: "=")
                guard parts.count == 2, let value = Double(parts[1]) else { return nil }
                return (String(parts[0]), value)
            })
    }

    /// Requests per second from a throughput client's `requests=N seconds=S` line.
    static func requestsPerSecond(printed line: String, by client: String) -> Double {
        let fields = fields(printed: line)
        guard let requests = fields["requests"], let seconds = fields["seconds"], seconds > 0 else {
            fail("the \(client) throughput client printed \(line)")
        }
        return requests / seconds
    }

    static func label(_ size: Int) -> String { size >= 1024 ? "\(size / 1024) KiB" : "\(size) B" }

    /// This program, for the client and server roles it runs as child processes.
    static let ownExecutable: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()
}

/// What the tuned gRPC processes of a run answered when asked to make NIO's shared group Swift's
/// global executor (`nio-executor=yes` or `no`, each one's first line).
final class NIOExecutorAnswers: Sendable {
    private let answers = Mutex((yes: 0, no: 0))

    /// Counts the answer in what a tuned `stack` process printed; nothing for the untuned peer.
    func record(_ printed: String, by stack: RPCBenchmark.Stack) {
        guard RPCBenchmark.Stack.tunedGRPC.contains(stack) else { return }
        let took = printed.contains("nio-executor=yes")
        guard took || printed.contains("nio-executor=no") else {
            fail("the \(stack.rawValue) process printed no executor answer: \(printed)")
        }
        answers.withLock { took ? ($0.yes += 1) : ($0.no += 1) }
    }

    /// For a note: how many tuned gRPC processes since the last summary ran with NIO as Swift's
    /// global executor. Starts the count afresh.
    func takeSummary() -> String {
        let (yes, no) = answers.withLock { answers in
            defer { answers = (0, 0) }
            return (answers.yes, answers.no)
        }
        return no == 0
            ? "NIO became Swift's global executor in all \(yes) tuned gRPC processes (servers and clients)"
            : "NIO became Swift's global executor in \(yes) of \(yes + no) tuned gRPC processes (a statically linked "
                + "runtime hides the hook it looks for); their tasks ran on the shared group all the same, their "
                + "task executor preference"
    }
}
