import Testing
import VerticalsWire

/// `WireValueError` in the framework's one error shape (`CodedError`): its code as before, the
/// message and field as details, and its message is the sentence it prints.
struct WireValueErrorShapeTests {
    @Test func aFieldsError_namesTheMessageAndTheField() {
        let error = WireValueError(
            .typeMismatch, messageName: "shop.SearchInput", path: "limit", reason: "expected an integer, got \"abc\"")

        #expect(error.code == .typeMismatch)
        #expect(error.detail("messageName") == "shop.SearchInput" && error.detail("field") == "limit")
        #expect(
            error.message == "field \"limit\": expected an integer, got \"abc\"" && error.description == error.message)
    }

    @Test func aWholeMessagesError_hasNoFieldDetail() {
        let error = WireValueError(.invalidJSON, messageName: "shop.SearchInput", path: "", reason: "not JSON")

        #expect(error.detail("field") == nil)
        #expect(error.description == "shop.SearchInput: not JSON")
    }
}
