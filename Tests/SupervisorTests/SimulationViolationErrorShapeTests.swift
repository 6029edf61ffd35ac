import Testing
import VerticalsWire

@testable import VerticalsSupervisor

/// `SimulatedWorld.Violation` in the framework's one error shape (`CodedError`): a code, the
/// invariant as a detail, and it prints as before (the invariant, then what the run saw).
struct SimulationViolationErrorShapeTests {
    @Test func aViolation_isInvariantBroken_withTheInvariantAsDetail() {
        let violation = SimulatedWorld.Violation(invariant: "one process serves", detail: "two serve")

        #expect(violation.code == .invariantBroken && "\(violation.code)" == "invariantBroken")
        #expect(violation.detail("invariant") == "one process serves")
        #expect(violation.description == "one process serves: two serve")
    }
}
