import Foundation

/// Section "curves", requests in flight: one connection from our typed client to our echo server
/// (64 B bodies), with 1 to 1,024 calls in flight at once, each for a second a point, the points
/// interleaved round by round: requests/s and the p99 round trip at each. The quick run
/// (`BENCH_ROUNDS` ≤ 2) takes four points, the full run six.
///
/// Past the depth that keeps the server's loop busy, requests/s should stay constant and the p99
/// grow linearly with the depth (each call waits behind the others: Little's law); anything
/// steeper is a cost per call that grows with the calls in flight.
struct InFlightCurve {
    let settings: BenchSettings
    let report: Report
    let directory: String

    var depths: [Int] { settings.rounds <= 2 ? [1, 16, 256, 1024] : [1, 4, 16, 64, 256, 1024] }

    func run() {
        let rpc = RPCBenchmark(settings: settings, report: report, directory: directory)
        var rates = [[Double]](repeating: [], count: depths.count)
        var tails = rates
        rpc.withServer(.ours, cpu: nil, mode: "throughput") { socketDirectory, _ in
            settings.interleaved("curves: in flight", points: depths.count) { index in
                let line = Subprocess.run(
                    RPCBenchmark.ownExecutable,
                    ["echo-throughput", socketDirectory, "64", "1", "\(depths[index])", "1", "timed"], cpu: nil)
                rates[index].append(RPCBenchmark.requestsPerSecond(printed: line, by: "ours"))
                tails[index].append(Self.percentile("p99", printed: line))
            }
        }
        let points = depths.map(Double.init)
        let work = "in flight on one connection"
        report.addCurve(
            "curves",
            Curve(name: "requests/s", work: work, unit: "req/s", points: points, values: rates.map(Summary.init)))
        report.addCurve(
            "curves", Curve(name: "p99", work: work, unit: "µs", points: points, values: tails.map(Summary.init)))
    }

    /// The microseconds of `name=` (`p50`, `p99`) in a timed throughput client's line.
    static func percentile(_ name: String, printed line: String) -> Double {
        for field in line.split(whereSeparator: \.isWhitespace) where field.hasPrefix("\(name)=") {
            if let value = Double(field.dropFirst(name.count + 1)) { return value }
        }
        fail("the timed throughput client printed no \(name): \(line)")
    }
}
