import Glibc
import Testing
import VerticalsServiceKit
import VerticalsTesting

/// `make fuzz-live` in miniature: vt-fuzz-live starts the suite of deploy/suite.toml under its
/// own svc-supervisor (a temporary run directory, a pointer of this test's own), learns every
/// operation from daemon.describe and fuzzes it for a few seconds over Unix sockets, then over
/// TCP with mutual TLS. It holds when no daemon exited, no answer was `internal` and every
/// answer was the Output or a typed error; a failure prints the finding with its replay.
@Suite(.serialized, .timeLimit(.minutes(6)))
struct FuzzLiveTests {
    /// Seconds of fuzzing in `make test` (both transports together); VT_FUZZ_LIVE_SECONDS changes it.
    static let seconds = ProcessEnvironment.current["VT_FUZZ_LIVE_SECONDS"] ?? "8"

    @Test func aLiveSuite_survivesSeededEdgeInputs_overUnixSocketsAndMutualTLS() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand(
            "vt-fuzz-live",
            [
                "--manifest", "\(ReadmeCommandTests.packageRoot)/deploy/suite.toml", "--seconds", Self.seconds,
                "--findings", directory.file("findings"),
            ],
            environment: ["VERTICALS_POINTER_DIR": directory.file("pointer")], in: directory, timeout: .seconds(300))
        let output = result.standardOutput + result.standardError
        // It fuzzed: every vertical learnt, both transports, sessions opened over Unix sockets.
        #expect(output.contains("Unix sockets"), "\(output)")
        #expect(output.contains("TCP with mutual TLS"), "\(output)")
        #expect(output.contains("sessions: patient yes, admin yes"), "\(output)")
        // Each transport fuzzed: two rounds that learn ids come first (200 requests), then the sweep.
        let sent = output.matches(of: /(\d+) requests in/).compactMap { Int($0.output.1) }
        #expect(sent.count == 2 && sent.allSatisfy { $0 > 250 }, "requests sent per transport: \(sent)\n\(output)")
        #expect(result.status == 0, "vt-fuzz-live found something (exit \(result.status)):\n\(output)")
    }
}
