import Testing
import VerticalsStorage

/// Storage's row ids: random version 4 UUIDs in the text form Foundation gives.
struct RandomIDTests {
    @Test func uuidString_isALowerCaseVersion4UUID() {
        for _ in 0..<200 {
            let id = Array(RandomID.uuidString().utf8)
            #expect(id.count == 36)
            for (index, byte) in id.enumerated() {
                if [8, 13, 18, 23].contains(index) {
                    #expect(byte == UInt8(ascii: "-"))
                } else {
                    #expect(Array("0123456789abcdef".utf8).contains(byte), "\(String(decoding: id, as: UTF8.self))")
                }
            }
            #expect(id[14] == UInt8(ascii: "4"), "version 4")
            #expect(Array("89ab".utf8).contains(id[19]), "variant 10")
        }
    }

    @Test func uuidString_differsEachTime_andUsesEveryDigit() {
        let ids = (0..<1_000).map { _ in RandomID.uuidString() }
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.joined().utf8).count == 17, "16 hex digits and the dash")
    }
}
