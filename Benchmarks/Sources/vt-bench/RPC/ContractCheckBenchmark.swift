import Foundation
import Histogram
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// What the connect-time contract check (`daemon.contractCheck`) costs: a client that declares
/// what it calls against one that does not, on the same echo server, interleaved round by round.
/// Once a connection is checked, a call costs what it did (p50 one in flight, requests per second
/// at 1 × 64); the first call on a new connection waits for one more round trip, whose bytes are
/// counted from the frames themselves. `BENCH_SECTIONS=contract-check` runs it alone.
struct ContractCheckBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    var latencyCount = 20_000
    var throughputSeconds = 1.0
    var firstCalls = 200

    func run() {
        let rpc = RPCBenchmark(settings: settings, report: report, directory: directory)
        let placement = RPCBenchmark.placements[1]
        var p50: [Bool: [Double]] = [:]
        var rates: [Bool: [Double]] = [:]
        var first: [Bool: [Double]] = [:]
        for round in 1...settings.rounds {
            progress("contract check round \(round)/\(settings.rounds)")
            for checks in [false, true] {
                let environment = checks ? ["VT_BENCH_CONTRACTS": "on"] : [:]
                rpc.withServer(.ours, cpu: placement.serverCPU) { socketDirectory, _ in
                    let output = "\(directory)/samples.bin"
                    _ = Subprocess.run(
                        RPCBenchmark.ownExecutable, ["echo-latency", socketDirectory, "64", "\(latencyCount)", output],
                        cpu: placement.clientCPU, environment: environment)
                    p50[checks, default: []].append(Self.median(of: output, count: latencyCount))
                    let line = Subprocess.run(
                        RPCBenchmark.ownExecutable,
                        ["echo-throughput", socketDirectory, "64", "1", "64", "\(throughputSeconds)"],
                        cpu: placement.clientCPU, environment: environment)
                    rates[checks, default: []].append(RPCBenchmark.requestsPerSecond(printed: line, by: "ours"))
                    let firstLine = Subprocess.run(
                        RPCBenchmark.ownExecutable, ["first-call", socketDirectory, "\(firstCalls)"],
                        cpu: placement.clientCPU, environment: environment)
                    first[checks, default: []].append(Self.value("micros", in: firstLine))
                }
            }
        }
        let section = "contract check"
        report.add(
            section, "established connection, p50 one in flight, 64 B", unit: "µs", ours: p50[true]!,
            baselineName: "no check", baseline: p50[false]!, ratioName: "checked/unchecked")
        report.add(
            section, "established connection, 1 conn × 64 in flight, 64 B", unit: "req/s", ours: rates[true]!,
            baselineName: "no check", baseline: rates[false]!, ratioName: "checked/unchecked")
        report.add(
            section, "first call on a new connection (connect, check, call), median", unit: "µs", ours: first[true]!,
            baselineName: "no check", baseline: first[false]!, ratioName: "checked/unchecked")
        let (asked, answered) = Self.exchangeBytes()
        report.note(
            "contract check: the first exchange on a connection sends \(asked) bytes and receives \(answered) "
                + "when the fingerprints match (bench.echo declared), one round trip before the first call")
    }

    /// The frames of one check that matches: the request a client sends and the answer it gets.
    static func exchangeBytes() -> (asked: Int, answered: Int) {
        let description = ContractFingerprint.description(of: BenchEcho.name, [BenchEcho.echo.descriptor])
        let fingerprint = ContractFingerprint.of(description)
        let request = Message.frame(
            Envelope(
                kind: .request, correlationID: .max, operation: Daemon.contractCheck.fullName,
                deadlineMicroseconds: 10_000_000),
            body: Daemon.ContractCheckInput(operations: [BenchEcho.echo.fullName], fingerprint: fingerprint))
        let answer = Message.frame(
            Envelope(kind: .response, correlationID: .max),
            body: Daemon.ContractCheck(
                service: BenchEcho.name, fingerprint: fingerprint, version: VerticalsVersion.current))
        return (request.count, answer.count)
    }

    /// The median of the samples a latency client wrote, in microseconds.
    static func median(of path: String, count: Int) -> Double {
        guard let data = FileManager.default.contents(atPath: path), data.count == count * 8 else {
            fail("the latency client wrote no samples")
        }
        var samples = data.withUnsafeBytes { Array($0.bindMemory(to: UInt64.self)) }
        samples.sort()
        return Double(samples[samples.count / 2]) / 1000
    }

    /// `key=value` from a role's printed line.
    static func value(_ key: String, in line: String) -> Double {
        for field in line.split(whereSeparator: \.isWhitespace) where field.hasPrefix("\(key)=") {
            if let value = Double(field.dropFirst(key.count + 1)) { return value }
        }
        fail("expected \(key)= in \(line)")
    }
}
