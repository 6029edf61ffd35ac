import Testing
import VerticalsServiceKit
import VerticalsWire

/// `LoopCountError` in the framework's one error shape (`CodedError`): a code to branch on, a
/// message, and the value as a detail.
struct LoopCountErrorShapeTests {
    @Test(arguments: ["0", "two", "257"])
    func aValueThatIsNotANumberOfLoops_isNotALoopCount_givingTheValue(text: String) {
        guard case .failure(let error) = LoopCount.from(environment: [LoopCount.variable: text]) else {
            Issue.record("VERTICALS_LOOPS=\(text) was accepted")
            return
        }

        #expect(error.code == .notALoopCount && error.detail("value") == text)
        #expect(error.message == error.description && error.cause == nil)
    }
}
