import Testing
import VerticalsTesting
import VerticalsWire

/// `SchemaCatalogError` in the framework's one error shape (`CodedError`): a catalog's refusals
/// carry a code a program can branch on, and print their reason as before.
struct SchemaCatalogErrorShapeTests {
    @Test func aNameGivenTwice_isADuplicate() {
        let error = #expect(throws: SchemaCatalogError.self) {
            try SchemaCatalog(messages: [MessageSchema("test.A", []), MessageSchema("test.A", [])], enumerations: [])
        }

        #expect(error?.code == .duplicate)
        #expect(error?.description == "message test.A is declared more than once")
        #expect(error?.message == error?.reason)
    }

    @Test func aMessageTheCatalogLacks_isNotListed() {
        let error = #expect(throws: SchemaCatalogError.self) {
            try SchemaCatalog(
                messages: [MessageSchema("test.Outer", [.optional(1, "inner", .message(named: "test.Inner"))])],
                enumerations: [])
        }

        #expect(error?.code == .notListed && "\(SchemaCatalogError.Code.notListed)" == "notListed")
    }

    @Test func aCause_isKeptButNotCompared_andTheReasonIsTheMessage() {
        expectCauseIsKeptButNotCompared(
            { SchemaCatalogError(.invalid, "test.A.b: default x is not a bool", cause: $0) },
            differsFrom: SchemaCatalogError(.unsupported, "test.A.b: default x is not a bool"))
        #expect(SchemaCatalogError(.refused, "over its bounds").reason == "over its bounds")
    }
}
