import Testing
import VerticalsServiceKit
import VerticalsWire

/// `DaemonArguments`' errors in the framework's one error shape (`CodedError`): a code to branch
/// on, a message, and what was refused as a detail.
struct DaemonArgumentsErrorShapeTests {
    @Test func anArgumentADaemonDoesNotTake_isAnUnknownArgument_namingIt() {
        guard case .failure(let error) = DaemonArguments.parse(["svc-echo", "--serve"]) else {
            Issue.record("--serve was accepted")
            return
        }

        #expect(error.code == .unknownArgument && error.detail("argument") == "--serve")
        #expect(error.description == "unknown argument --serve")
    }

    @Test func aProbeTimeoutThatIsNoDeadline_isNotATimeout_givingTheValue() {
        guard
            case .failure(let error) = DaemonArguments.probeTimeout(environment: [
                "VERTICALS_PROBE_TIMEOUT_SECONDS": "0"
            ])
        else {
            Issue.record("a timeout of 0 was accepted")
            return
        }

        #expect(error.code == .notATimeout && error.detail("value") == "0")
        #expect(error.description == "VERTICALS_PROBE_TIMEOUT_SECONDS=0 is not a number of seconds > 0 (at most 3600)")
    }
}
