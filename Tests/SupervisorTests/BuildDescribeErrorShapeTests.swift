import Testing
import VerticalsSupervisor
import VerticalsWire

/// `BuildDescribeError` in the framework's one error shape (`CodedError`): its reason is its
/// code, the program a detail, and it prints as before.
struct BuildDescribeErrorShapeTests {
    @Test(arguments: [
        (BuildDescribeError.Reason.notStarted, BuildDescribeError.Code.notStarted), (.refused, .refused),
        (.failed, .failed), (.timedOut, .timedOut), (.malformed, .malformed),
    ])
    func itsCode_isItsReason(reason: BuildDescribeError.Reason, code: BuildDescribeError.Code) {
        let error = BuildDescribeError("/usr/bin/svc-alpha", reason, "took longer than 10 s")

        #expect(error.code == code && code.description == reason.rawValue)
        #expect(error.detail("program") == "/usr/bin/svc-alpha" && error.message == "took longer than 10 s")
        #expect(error.description == "/usr/bin/svc-alpha: took longer than 10 s")
    }
}
