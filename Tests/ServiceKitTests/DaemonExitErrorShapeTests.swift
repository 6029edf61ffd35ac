import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// `DaemonExit` in the framework's one error shape (`CodedError`): a code for each end, its
/// status as a detail, the unexpected error as its cause, and it prints as before.
struct DaemonExitErrorShapeTests {
    struct Unexpected: Error {}

    @Test(arguments: [
        (DaemonExit.stopped, "stopped"),
        (.answered("svc-echo 1.0\n"), "answered"),
        (.usage("svc-echo: unknown argument --x\n"), "usage"),
        (.socketUnavailable("cannot serve echo: address in use"), "socketUnavailable"),
        (.cannotStart("svc-echo: cannot start: disk full\n"), "startFailed"),
        (.cannotStart("svc-echo: cannot start: held\n", restartCannotHelp: true), "restartCannotHelp"),
        (.configurationInvalid("svc-echo --check failed:\n"), "configurationInvalid"),
        (.unhealthy("no answer\n"), "unhealthy"),
    ])
    func eachEnd_hasItsCode_andItsStatusAsADetail(end: DaemonExit, code: String) {
        #expect("\(end.code)" == code && end.cause == nil)
        #expect(end.detail("status") == String(end.status))
    }

    @Test func anUnexpectedError_failed_keepingTheErrorAsItsCause() {
        let end = DaemonExit(Unexpected())

        #expect(end.code == .failed && end.cause is Unexpected)
        #expect(end.message == "failed: Unexpected()" && end.description == "exit 70: failed: Unexpected()")
    }

    @Test func twoEnds_areEqual_byCodeAndMessage() {
        #expect(DaemonExit.usage("u\n") == .usage("u\n"))
        #expect(DaemonExit.usage("u\n") != .configurationInvalid("u\n"))
    }
}
