import Testing
import VerticalsSupervisorClient
import VerticalsWire

/// `Exposition.ParseError` in the framework's one error shape (`CodedError`): a code to branch
/// on, a message, and the line as a detail.
struct ExpositionParseErrorShapeTests {
    @Test func aLineThatIsNoSample_isMalformed_givingTheLine() {
        let error = #expect(throws: Exposition.ParseError.self) {
            try Exposition.parse("# TYPE x gauge\nx 1\nx one\n")
        }

        #expect(error?.code == .malformed && error?.detail("line") == "3")
        #expect(error?.description == "line 3: \"one\" is not a value")
    }
}
