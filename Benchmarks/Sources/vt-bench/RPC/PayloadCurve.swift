import Foundation
import VerticalsWire

/// Section "curves", payload: one connection with 4 calls in flight from our typed client to our
/// echo server, bodies from 64 B to the largest the 4 MiB frame limit admits with its envelope,
/// against the C libuv echo of frames of the same length over the same kind of socket (a copy
/// in and out, with no envelope, codec or handler), one second a point, ours and C interleaved
/// point by point, round by round. MB/s counts the body's bytes once a round trip. Target: ours
/// at least half the C echo's MB/s from 1 MiB up. The quick run takes four sizes.
///
/// From 1 MiB up, a third server runs beside them with its outbound high-water mark raised
/// above the four answers in flight (`VERTICALS_OUTBOUND_HIGH_WATER_BYTES`, no target): at the
/// default 1 MiB, one long answer queued stops the server reading the next request until the
/// answer has drained (backpressure, a server's guard against a peer that does not read), so
/// the two directions take turns where the C echo, which has no such guard, sends both at once.
/// The pair of rows shows what that guard costs at these sizes.
///
/// A server keeps the memory long frames free while they come, and hands it back once they stop
/// (VerticalsEventLoop's `EventLoop+MemoryRelease.swift`, two seconds after the last). The last row
/// holds it to that: the default server's private dirty memory settled after the curve against
/// before it. Target: at most 1.25× (kept and never handed back, it is several times that).
struct PayloadCurve {
    let settings: BenchSettings
    let report: Report
    let directory: String
    static let depth = 4
    /// The raised server's outbound high-water mark: the four largest answers fit under it.
    static let raisedHighWater = 16 << 20

    /// How long after the curve's last frame the server's memory is read: past the release two
    /// seconds after the last long frame.
    static let settle: Duration = .seconds(5)

    /// The largest `echo` body whose request frame fits the default frame limit.
    static let largestBody: Int = {
        var size = FrameDecoder.defaultMaxFrameSize
        while BenchEcho.framePayloadLength(bodySize: size) > FrameDecoder.defaultMaxFrameSize {
            size -= BenchEcho.framePayloadLength(bodySize: size) - FrameDecoder.defaultMaxFrameSize
        }
        return size
    }()

    var sizes: [Int] {
        settings.rounds <= 2
            ? [64, 16 << 10, 1 << 20, Self.largestBody] : [64, 1 << 10, 16 << 10, 256 << 10, 1 << 20, Self.largestBody]
    }

    func run() {
        let rpc = RPCBenchmark(settings: settings, report: report, directory: directory)
        let raisedDirectory = directory + "/raised-high-water"
        try? FileManager.default.createDirectory(atPath: raisedDirectory, withIntermediateDirectories: true)
        let raisedRPC = RPCBenchmark(settings: settings, report: report, directory: raisedDirectory)
        var ours = [[Double]](repeating: [], count: sizes.count)
        var c = ours
        var raised = ours
        var dirtyBefore: [Double] = []
        var dirtySettled: [Double] = []
        func megabytesPerSecond(_ server: String, _ size: Int) -> Double {
            let line = Subprocess.run(
                RPCBenchmark.ownExecutable, ["echo-throughput", server, "\(size)", "1", "\(Self.depth)", "1"], cpu: nil)
            return RPCBenchmark.requestsPerSecond(printed: line, by: "ours") * Double(size) / 1_000_000
        }
        let raising = ["VERTICALS_OUTBOUND_HIGH_WATER_BYTES": "\(Self.raisedHighWater)"]
        rpc.withServer(.ours, cpu: nil, mode: "throughput") { oursDirectory, oursPID in
            if let memory = ProcessStats.memory(oursPID) { dirtyBefore.append(memory.privateDirty / 1024) }
            raisedRPC.withServer(.ours, cpu: nil, mode: "throughput", environment: raising) { raisedServer, _ in
                rpc.withServer(.c, cpu: nil, mode: "throughput") { cDirectory, _ in
                    settings.interleaved("curves: payload", points: sizes.count) { index in
                        let size = sizes[index]
                        ours[index].append(megabytesPerSecond(oursDirectory, size))
                        let frame = BenchEcho.framePayloadLength(bodySize: size)
                        let cLine = Subprocess.run(
                            settings.uvEcho,
                            ["throughput", "\(cDirectory)/c.sock", "\(frame)", "1", "\(Self.depth)", "1"], cpu: nil)
                        c[index].append(
                            RPCBenchmark.requestsPerSecond(printed: cLine, by: "C") * Double(size) / 1_000_000)
                        if size >= 1 << 20 { raised[index].append(megabytesPerSecond(raisedServer, size)) }
                    }
                }
            }
            Thread.sleep(forTimeInterval: Double(Self.settle.components.seconds))
            if let memory = ProcessStats.memory(oursPID) { dirtySettled.append(memory.privateDirty / 1024) }
        }
        for (index, size) in sizes.enumerated() {
            report.add(
                "curves", "payload \(RPCBenchmark.label(size)), 1 connection × \(Self.depth) in flight", unit: "MB/s",
                ours: ours[index], baselineName: "C echo", baseline: c[index], ratioName: "ours/C",
                target: size >= 1 << 20 ? .atLeast(0.5) : nil)
            if !raised[index].isEmpty {
                report.add(
                    "curves",
                    "payload \(RPCBenchmark.label(size)), 1 connection × \(Self.depth) in flight, "
                        + "outbound high water \(Self.raisedHighWater >> 20) MiB",
                    unit: "MB/s", ours: raised[index], baselineName: "C echo", baseline: c[index], ratioName: "ours/C")
            }
        }
        if !dirtySettled.isEmpty {
            report.add(
                "curves", "payload: server private dirty \(Self.settle.components.seconds) s after the curve",
                unit: "MiB", ours: dirtySettled, baselineName: "before", baseline: dirtyBefore,
                ratioName: "after/before",
                target: .atMost(1.25))
        }
        let points = sizes.map(Double.init)
        let work = "body bytes, 1 connection × \(Self.depth) in flight"
        report.addCurve(
            "curves",
            Curve(name: "MB/s, ours", work: work, unit: "MB/s", points: points, values: ours.map(Summary.init)),
            rows: false)
        report.addCurve(
            "curves",
            Curve(name: "MB/s, C echo", work: work, unit: "MB/s", points: points, values: c.map(Summary.init)),
            rows: false)
    }
}
