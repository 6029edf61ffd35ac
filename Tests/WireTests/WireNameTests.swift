import Testing
import VerticalsWire

/// The grammar of names from the wire.
struct WireNameTests {
    @Test(arguments: ["shop.buy", "daemon.contractCheck", "shop.BuyInput", "a", "_x", "svc-a.op_1"])
    func aNameOfTheGrammar_isValid(_ name: String) {
        #expect(WireName.problem(name) == nil)
    }

    @Test(arguments: ["", ".a", "a.", "a..b", "1a", "a b", "é", "a\u{0301}", "a\0", String(repeating: "a", count: 129)])
    func textOutsideTheGrammar_saysWhy(_ name: String) {
        #expect(WireName.problem(name) != nil)
    }

    @Test func names_sortByTheirBytes() {
        #expect(WireName.precedes("a.B", "a.a"))
        #expect(!WireName.precedes("a.a", "a.a"))
    }
}
