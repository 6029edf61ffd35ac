import Testing
import VerticalsWire

@testable import VerticalsSupervisor

/// `SupervisorSimulation.Failure` in the framework's one error shape (`CodedError`): a code, the
/// seed, steps and invariant as details, and it prints as before (the replay line, then the trace).
struct SimulationFailureErrorShapeTests {
    @Test func aBrokenInvariant_hasItsCode_andTheSeedStepsAndInvariantAsDetails() {
        let failure = SupervisorSimulation.Failure(
            seed: 7, steps: 300, invariant: "one process serves", detail: "two serve",
            configuration: "echo", trace: ["start", "crash"])

        #expect(failure.code == .invariantBroken && "\(failure.code)" == "invariantBroken")
        #expect(failure.detail("seed") == "7" && failure.detail("steps") == "300")
        #expect(failure.detail("invariant") == "one process serves" && failure.cause == nil)
        #expect(
            failure.description == """
                seed 7 broke "one process serves": two serve — replay: vt-simulate --seed 7 --steps 300
                  service: echo
                  1. start
                  2. crash
                """)
    }
}
