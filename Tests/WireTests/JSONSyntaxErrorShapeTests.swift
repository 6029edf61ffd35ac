import Testing
import VerticalsWire

/// `JSONSyntaxError` in the framework's one error shape (`CodedError`): its kind is its code, the
/// place is in its details, and it prints as before.
struct JSONSyntaxErrorShapeTests {
    @Test func aSyntaxError_hasItsKindAsCode_andItsPlaceAsDetails() {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "{\n  \"a\": x\n}") }

        #expect(error?.code == .unexpectedCharacter && error?.code == error?.kind)
        #expect(error?.detail("line") == "2" && error?.detail("column") == "8" && error?.detail("offset") == "9")
        #expect(error?.message == "line 2, column 8: expected a value, found 'x'")
    }
}
