import Glibc
import Testing
import VerticalsClient
import VerticalsServiceKit
import VerticalsTesting

/// `make fuzz-live` in miniature: vt-fuzz-live starts the suite of deploy/suite.toml under its
/// own svc-supervisor (a temporary run directory, a pointer of this test's own), learns every
/// operation from daemon.describe and fuzzes it for a few seconds over Unix sockets, then over
/// TCP with mutual TLS. It holds when no daemon exited, no answer was `internal` and every
/// answer was the Output or a typed error; a failure prints the finding with its replay.
@Suite(.blocking, .serialized, .timeLimit(.minutes(6)))
struct FuzzLiveTests {
    /// Seconds of fuzzing in `make test` (both transports together); VT_FUZZ_LIVE_SECONDS changes it.
    static let seconds = ProcessEnvironment.current["VT_FUZZ_LIVE_SECONDS"] ?? "10"

    @Test func aLiveSuite_survivesSeededEdgeInputs_overUnixSocketsAndMutualTLS() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand(
            "vt-fuzz-live",
            [
                "--manifest", "\(DocsTests.packageRoot)/deploy/suite.toml", "--seconds", Self.seconds,
                "--findings", directory.file("findings"),
            ],
            environment: ["VERTICALS_POINTER_DIR": directory.file("pointer")], in: directory, timeout: .seconds(300))
        let output = result.standardOutput + result.standardError
        // It fuzzed: every vertical learnt, both transports, sessions opened over Unix sockets.
        #expect(output.contains("Unix sockets"), "\(output)")
        #expect(output.contains("TCP with mutual TLS"), "\(output)")
        #expect(output.contains("sessions: patient yes, admin yes"), "\(output)")
        // Each transport fuzzed: past the requests that learn ids, the sweep and random inputs.
        let fuzzed = output.matches(of: /(\d+) sweep, (\d+) random/).compactMap { match in
            Int(match.output.1).flatMap { sweep in Int(match.output.2).map { sweep + $0 } }
        }
        #expect(
            fuzzed.count == 2 && fuzzed.allSatisfy { $0 > 20 }, "requests fuzzed per transport: \(fuzzed)\n\(output)")
        // The findings' headlines first: a log that keeps one line of the message still says what was found.
        let headlines = output.split(separator: "\n").filter {
            $0.hasPrefix("FINDING") || $0.hasPrefix("vt-fuzz-live:")
        }
        #expect(
            result.status == 0,
            "vt-fuzz-live found something (exit \(result.status)): \(headlines.joined(separator: " | "))\n\(output)")
    }
}
