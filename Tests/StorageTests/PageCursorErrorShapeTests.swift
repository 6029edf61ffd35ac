import Testing
import VerticalsStorage
import VerticalsWire

/// `PageCursorError` in the framework's one error shape (`CodedError`): a code to branch on and
/// a message that is the whole sentence.
struct PageCursorErrorShapeTests {
    @Test func aCursorOfAnotherList_isAltered() {
        let text = PageCursor([.integer(7)]).encoded(scope: "widgets")

        let error = #expect(throws: PageCursorError.self) {
            try PageCursor.decode(text, scope: "gadgets", keyCount: 1)
        }

        #expect(error?.code == .altered)
        #expect(error?.description == "the cursor " + (error?.reason ?? ""))
    }

    @Test func aCursorWithAnotherNumberOfKeys_isOfTheWrongList() {
        let text = PageCursor([.integer(7), .text("a")]).encoded(scope: "widgets")

        let error = #expect(throws: PageCursorError.self) {
            try PageCursor.decode(text, scope: "widgets", keyCount: 1)
        }

        #expect(error?.code == .wrongList && error?.reason == "does not fit this list")
        #expect(error?.detail("reason") == "does not fit this list")
    }

    @Test func textThatIsNoCursor_isMalformed() {
        let error = #expect(throws: PageCursorError.self) {
            try PageCursor.decode("not a cursor!", scope: "widgets", keyCount: 1)
        }

        #expect(error?.code == .malformed)
    }
}
