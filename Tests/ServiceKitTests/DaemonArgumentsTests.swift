import Testing
@testable import VerticalsServiceKit

/// What a daemon's command line may say, and what `--check` finds in its environment.
struct DaemonArgumentsTests {
    @Test(arguments: [
        ([], DaemonArguments.serve), (["--check"], .check), (["--help"], .help), (["-h"], .help),
        (["--version"], .version), (["--probe"], .probe), (["--describe"], .describe),
        (["--place-replica-copy"], .placeReplicaCopy),
    ])
    func parse_givenAKnownArgument_choosesItsMode(arguments: [String], mode: DaemonArguments) throws {
        #expect(try DaemonArguments.parse(arguments).get() == mode)
    }

    @Test(arguments: [["--serve"], ["extra"], ["--check", "--help"]])
    func parse_givenAnythingElse_namesTheArgument(arguments: [String]) {
        guard case .failure(let error) = DaemonArguments.parse(arguments) else {
            Issue.record("accepted \(arguments)")
            return
        }
        #expect(arguments.contains(error.argument))
    }

    @Test func problems_nameEveryBadSetting() {
        let environment = [
            "VERTICALS_SOCKET_DIR": "/tmp/" + String(repeating: "d", count: 120), "VERTICALS_LOG_LEVEL": "loud",
            "VERTICALS_MAX_FRAME_BYTES": "-1", "VERTICALS_DRAIN_SECONDS": "soon", "VERTICALS_SYNC_WARN_MS": "0",
        ]
        let configuration = HostConfiguration.from(environment: environment, name: "catalog", pid: 1)

        let problems = DaemonArguments.problems(in: configuration, environment: environment)

        #expect(problems.count == 5, "\(problems)")
        #expect(problems.contains { $0.contains("VERTICALS_SYNC_WARN_MS=0") }, "\(problems)")
        let good = ["VERTICALS_SYNC_WARN_MS": "25"]
        #expect(
            DaemonArguments.problems(in: .from(environment: good, name: "catalog", pid: 1), environment: good).isEmpty)
        #expect(
            DaemonArguments.problems(in: .from(environment: [:], name: "catalog", pid: 1), environment: [:]).isEmpty)
    }

    @Test func probeTimeout_isTheVariable_orTheDefault_andRefusesWhatIsNotADeadline() {
        #expect(DaemonArguments.probeTimeout(environment: [:]) == .success(DaemonArguments.defaultProbeTimeout))
        #expect(
            DaemonArguments.probeTimeout(environment: ["VERTICALS_PROBE_TIMEOUT_SECONDS": "1.5"])
                == .success(.milliseconds(1500)))
        for bad in ["soon", "0", "-2", "3601", "nan"] {
            #expect(
                DaemonArguments.probeTimeout(environment: ["VERTICALS_PROBE_TIMEOUT_SECONDS": bad])
                    == .failure(DaemonArguments.ProbeTimeoutError(text: bad)), "\(bad)")
        }
    }

    @Test func problems_nameBadEndpointsAndPlainTCPNotAskedFor() {
        let environment = [
            "VERTICALS_LISTEN": "tcp:127.0.0.1:7001", // no VERTICALS_TLS: refused
            "VERTICALS_ENDPOINT_LEDGER": "tcp:ledger",
        ]
        let problems = DaemonArguments.problems(
            in: .from(environment: environment, name: "catalog", pid: 1), environment: environment)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.contains("TCP needs TLS") })
        #expect(problems.contains { $0.contains("VERTICALS_ENDPOINT_LEDGER") && $0.contains("names no port") })

        let bad = ["VERTICALS_LISTEN": "tcp:[::1]"]
        #expect(
            DaemonArguments.problems(in: .from(environment: bad, name: "catalog", pid: 1), environment: bad).count == 1)
        let unreadable = [
            "VERTICALS_LISTEN": "tcp:127.0.0.1:7001", "VERTICALS_TLS_CERT": "/nonexistent/echo.pem",
            "VERTICALS_TLS_KEY": "/nonexistent/echo.key", "VERTICALS_TLS_CA": "/nonexistent/ca.pem",
        ]
        let tlsProblems = DaemonArguments.problems(
            in: .from(environment: unreadable, name: "catalog", pid: 1), environment: unreadable)
        #expect(tlsProblems.count == 1 && tlsProblems[0].contains("/nonexistent/echo.pem"), "\(tlsProblems)")
        let halfNamed = ["VERTICALS_LISTEN": "tcp:127.0.0.1:7001", "VERTICALS_TLS_CERT": "/x.pem"]
        let halfProblems = DaemonArguments.problems(
            in: .from(environment: halfNamed, name: "catalog", pid: 1), environment: halfNamed)
        #expect(halfProblems.contains { $0.contains("VERTICALS_TLS_KEY, VERTICALS_TLS_CA") }, "\(halfProblems)")
        let fine = [
            "VERTICALS_LISTEN": "tcp:127.0.0.1:7001", "VERTICALS_TLS": "off",
            "VERTICALS_ENDPOINT_LEDGER": "tcp:[::1]:7002",
        ]
        #expect(
            DaemonArguments.problems(in: .from(environment: fine, name: "catalog", pid: 1), environment: fine).isEmpty)
    }
}
