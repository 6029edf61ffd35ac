import Testing
import VerticalsSupervisor
import VerticalsWire

/// `DeployEdges.DescribeFailure` in the framework's one error shape (`CodedError`): a code for
/// each failure, the callee as a detail, and what was thrown asking as its cause.
struct DescribeFailureErrorShapeTests {
    struct Refused: Error {}

    @Test func anUnreachableCallee_hasItsCode_theCalleeAsADetail_andTheCallsErrorAsCause() {
        let failure = DeployEdges.DescribeFailure(
            .unreachable, callee: "ledger", "ledger cannot be reached: unavailable: no socket", cause: Refused())

        #expect(failure.code == .unreachable && "\(failure.code)" == "unreachable")
        #expect(failure.detail("callee") == "ledger" && failure.callee == "ledger" && failure.cause is Refused)
        #expect(failure.description == "ledger cannot be reached: unavailable: no socket")
    }

    @Test func twoFailures_areEqual_whateverTheirCauses() {
        let first = DeployEdges.DescribeFailure(.notADescription, callee: "mailer", "no", cause: Refused())
        let second = DeployEdges.DescribeFailure(.notADescription, callee: "mailer", "no")

        #expect(first == second)
        #expect(first != DeployEdges.DescribeFailure(.unreachable, callee: "mailer", "no"))
    }
}
