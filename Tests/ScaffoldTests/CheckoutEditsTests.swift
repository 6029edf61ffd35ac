import Testing

@testable import VerticalsScaffold

/// `new`'s edit of Package.swift, on text alone: the new vertical's line goes after the last
/// `vertical(…)` call, whole, however the call is wrapped.
struct CheckoutEditsTests {
    @Test func package_afterAWrappedLastCall_insertsAfterItsClosingLine() throws {
        let text = """
            let targets = [
            ]
                + vertical("Identity")
                + vertical(
                    "Notifications", library: ["Sessions (x"],
                    tests: verticalTests + ["VerticalsStorage"])
                + [
                ]
            """
        let edited = try CheckoutEdits.package(text, adding: VerticalName("billing"))
        let lines = edited.split(separator: "\n").map(String.init)
        let inserted = try #require(lines.firstIndex(of: "    + vertical(\"Billing\")"))
        #expect(lines[inserted - 1].hasSuffix("tests: verticalTests + [\"VerticalsStorage\"])"))
        #expect(lines[inserted + 1] == "    + [")
    }

    @Test func package_whoseLastCallNeverCloses_isRefused() {
        let text = "let targets = []\n    + vertical(\n        \"Identity\""
        #expect(throws: ScaffoldError.self) { try CheckoutEdits.package(text, adding: VerticalName("billing")) }
    }
}
