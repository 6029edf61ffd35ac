import Glibc
import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting

/// `svc-supervisor call --trace`, `trace ID` and `trace --slowest N` against a supervised suite.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct TraceCommandTests {
    @Test func callTrace_printsItsTraceAndWaterfall_andTraceFindsItAgain() async throws {
        let suite = try await SupervisedSuite.ready()
        let call = try runCommand(
            "svc-supervisor",
            [
                "call", "--trace", "--run-dir", suite.run, "clinics", "nearest",
                #"{"latitude": 53.48, "longitude": -2.24, "limit": 1}"#,
            ],
            in: suite.directory, timeout: .seconds(60))
        #expect(call.status == 0, "\(call.standardError)")
        #expect(try Clinics.NearbyClinics(json: call.standardOutput).clinics.count == 1, "stdout stays the Output")
        let first = call.standardError.split(separator: "\n").first { $0.hasPrefix("trace ") }.map(String.init) ?? ""
        let traceID = String(first.dropFirst("trace ".count))
        #expect(traceID.count == 32, "\(call.standardError)")
        #expect(
            call.standardError.contains("clinics.nearest") && call.standardError.contains("offset ms"),
            "\(call.standardError)")

        let trace = try runCommand(
            "svc-supervisor", ["trace", traceID, "--run-dir", suite.run], in: suite.directory, timeout: .seconds(60))
        #expect(trace.status == 0, "\(trace.standardError)")
        let row = trace.standardOutput.split(separator: "\n").first { $0.contains("clinics.nearest") } ?? ""
        #expect(row.contains("ok") && row.contains("clinics"), "\(trace.standardOutput)")

        let slowest = try runCommand(
            "svc-supervisor", ["trace", "--slowest", "5", "--run-dir", suite.run], in: suite.directory,
            timeout: .seconds(60))
        #expect(slowest.status == 0, "\(slowest.standardError)")
        #expect(slowest.standardOutput.contains("duration ms"), "\(slowest.standardOutput)")

        let unknown = try runCommand(
            "svc-supervisor", ["trace", String(repeating: "ab", count: 16), "--run-dir", suite.run],
            in: suite.directory,
            timeout: .seconds(60))
        #expect(unknown.status == 1, "\(unknown.standardOutput)\(unknown.standardError)")
    }
}
