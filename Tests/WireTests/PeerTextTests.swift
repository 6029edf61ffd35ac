import Testing
import VerticalsWire

/// Text from a peer is cut to its bound, with a marker, where it is made.
struct PeerTextTests {
    @Test func fourMebibytesOfInvalidUTF8_becomeAtMostTheBound_notTwelveMegabytes() {
        let bytes = [UInt8](repeating: 0xFF, count: 4 << 20)
        let text = PeerText(decoding: bytes)
        #expect(text.text.utf8.count <= PeerText.findingMaxBytes)
        #expect(text.wasCut)
        #expect(text.text.hasSuffix("[cut: 4194304 bytes in all]"))
        #expect(text.text.hasPrefix("\u{FFFD}\u{FFFD}"))
    }

    @Test func aLongString_isCutOnAScalar_withTheMarkerInsideTheBound() {
        let long = String(repeating: "é", count: 10_000)
        for bound in [64, 65, 100, 512] {
            let text = PeerText(long, maxBytes: bound)
            #expect(text.text.utf8.count <= bound, "\(bound)")
            #expect(text.text.hasPrefix("éé"))
            #expect(text.wasCut)
        }
    }

    @Test func textWithinTheBound_isKeptWhole() {
        #expect(PeerText("callee said no").text == "callee said no")
        #expect(!PeerText("callee said no").wasCut)
        #expect(PeerText(decoding: Array("short".utf8)).text == "short")
        #expect(PeerText(decoding: [0x61, 0xFF, 0x62]).text == "a\u{FFFD}b")
    }
}
