import Foundation
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// Section 5, tracing's cost on a booking: one client books for a slice through a
/// fresh supervised suite that samples every trace and exports it over OTLP/HTTP to a real
/// receiver (`scripts/otlp-receiver.py`, opentelemetry-proto's classes), against a fresh suite
/// with the default settings (no collector, sampling 0), alternating round by round. Skipped,
/// with a note, when the receiver cannot start (opentelemetry-proto missing).
struct TracedBooking {
    /// The suite section whose booking loop this one times, with its settings, report, run
    /// directory and loop.
    let bench: SuiteBenchmark
    var slice: Duration = .milliseconds(1500)

    func run() async {
        guard let receiver = startReceiver() else {
            bench.report.note(
                "tracing: the OTLP receiver did not start (python3 with opentelemetry-proto: scripts/install-deps.sh --test); row skipped"
            )
            return
        }
        defer { Subprocess.stop(receiver.process) }
        let exported = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)", "VERTICALS_TRACE_SAMPLE_RATIO": "1",
        ]
        var plain: [Double] = []
        var traced: [Double] = []
        for round in 1...bench.settings.rounds {
            progress("booking with and without an OTLP receiver, round \(round)/\(bench.settings.rounds)")
            plain.append(await bookingP50(environment: [:], name: "plain\(round)"))
            traced.append(await bookingP50(environment: exported, name: "traced\(round)"))
        }
        let spans =
            (try? String(contentsOfFile: receiver.spansFile, encoding: .utf8))?.split(separator: "\n").count ?? 0
        guard spans > 0 else { fail("the OTLP receiver got no span from the traced suites") }
        bench.report.add(
            "suite", "book p50, 1 client, every trace exported to an OTLP receiver", unit: "ms", ours: traced,
            baselineName: "no collector, sampling 0", baseline: plain, ratioName: "traced/plain")
        bench.report.note("tracing: the receiver got \(spans) spans from the traced suites")
    }

    /// A fresh suite with `environment`, one patient, one client booking for `slice`: its p50 in ms.
    private func bookingP50(environment: [String: String], name: String) async -> Double {
        let suite = await SupervisedSuite.up(
            bench.settings, environment: environment, runDirectory: "\(bench.directory)/\(name)", loop: bench.loop)
        let setup = await Setup.make(suite: suite, loop: bench.loop, patients: 1)
        let slots = BookingSlots(now: Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)))
        let client = ServiceClient(loop: bench.loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        _ = await bench.book(clients: [client], setup: setup, slots: slots, for: .milliseconds(300))
        let run = await bench.book(clients: [client], setup: setup, slots: slots, for: slice)
        client.close()
        await suite.down()
        return Summary(run.latencies).median / 1000
    }

    /// The receiver on a free loopback port, once it listens; nil when it cannot start.
    private func startReceiver() -> (process: Process, port: Int, spansFile: String)? {
        let script = "\(bench.settings.rootDirectory)/scripts/otlp-receiver.py"
        let portFile = "\(bench.directory)/otlp.port"
        let spansFile = "\(bench.directory)/otlp.spans"
        let process = Subprocess.start("/usr/bin/env", ["python3", script, portFile, spansFile])
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, process.isRunning {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) {
                return (process, port, spansFile)
            }
            usleep(20_000)
        }
        Subprocess.stop(process)
        return nil
    }
}
