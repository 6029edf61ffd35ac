import Testing
@testable import VerticalsServiceKit

/// What a daemon's command line may say, and what `--check` finds in its environment.
struct DaemonArgumentsTests {
    @Test(arguments: [
        ([], DaemonArguments.serve), (["--check"], .check), (["--help"], .help), (["-h"], .help),
        (["--version"], .version), (["--probe"], .probe),
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
            "VERTICALS_MAX_FRAME_BYTES": "-1", "VERTICALS_DRAIN_SECONDS": "soon",
        ]
        let configuration = HostConfiguration.from(environment: environment, name: "clinics", pid: 1)

        let problems = DaemonArguments.problems(in: configuration, environment: environment)

        #expect(problems.count == 4, "\(problems)")
        #expect(DaemonArguments.problems(in: .from(environment: [:], name: "clinics", pid: 1), environment: [:]).isEmpty)
    }

    @Test func probeTimeout_isTheVariable_orTheDefault_andRefusesWhatIsNotADeadline() {
        #expect(DaemonArguments.probeTimeout(environment: [:]) == .success(DaemonArguments.defaultProbeTimeout))
        #expect(DaemonArguments.probeTimeout(environment: ["VERTICALS_PROBE_TIMEOUT_SECONDS": "1.5"]) == .success(.milliseconds(1500)))
        for bad in ["soon", "0", "-2", "3601", "nan"] {
            #expect(
                DaemonArguments.probeTimeout(environment: ["VERTICALS_PROBE_TIMEOUT_SECONDS": bad])
                    == .failure(DaemonArguments.ProbeTimeoutError(text: bad)), "\(bad)")
        }
    }
}
