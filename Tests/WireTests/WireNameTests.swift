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

/// A name is compared or hashed as a `String` only once it is known to be ASCII.
struct WireNameASCIITests {
    @Test(arguments: ["", "a", "echo.echo", "daemon.contractCheck", String(repeating: "x", count: 511)])
    func asciiText_isASCII(_ text: String) {
        #expect(WireName.isASCII(text))
    }

    @Test(arguments: ["é", "echo.eché", "a" + String(repeating: "\u{0301}\u{0300}", count: 255), "abcdefgh\u{80}"])
    func anyOtherText_isNot(_ text: String) {
        #expect(!WireName.isASCII(text))
    }
}
