import Testing
import VerticalsStorage

/// A request's optional cursor read through `PageCursor.decode(_:scope:keyCount:refusal:)`: none
/// is the first page, a good one its position, and a bad one the caller's own refusal.
struct PageCursorRequestTests {
    struct Refused: Error, Equatable {
        var reason: String
    }

    @Test func noCursor_isTheFirstPage() throws {
        let after = try PageCursor.decode(nil, scope: "widgets", keyCount: 2) { Refused(reason: $0) }
        #expect(after == nil)
    }

    @Test func aCursorOfThisList_isItsPosition() throws {
        let cursor = PageCursor([.integer(7), .text("a")])
        let after = try PageCursor.decode(cursor.encoded(scope: "widgets"), scope: "widgets", keyCount: 2) {
            Refused(reason: $0)
        }
        #expect(after == cursor)
    }

    @Test func aCursorOfAnotherList_isTheCallersRefusal_withTheReason() {
        let text = PageCursor([.integer(7), .text("a")]).encoded(scope: "gadgets")
        let error = #expect(throws: Refused.self) {
            try PageCursor.decode(text, scope: "widgets", keyCount: 2) { Refused(reason: $0) }
        }
        let expected = #expect(throws: PageCursorError.self) {
            try PageCursor.decode(text, scope: "widgets", keyCount: 2)
        }
        #expect(error == Refused(reason: expected?.reason ?? "none"))
        #expect(expected?.code == .altered)
    }
}
