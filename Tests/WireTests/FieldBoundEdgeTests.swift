import Testing
import VerticalsContract
import VerticalsTestSupport
import VerticalsWire

/// The edges of a bounded field's length, read by the direct decoder: empty, one byte, the bound,
/// one past it, and a length that claims more bytes than the body holds. The bound is a compare
/// of the declared length; a text of invalid UTF-8 is checked again once repaired whenever it
/// could have outgrown its bound (over a third of it).
@Suite("Edges of the bounds on the text of Inputs")
struct FieldBoundEdgeTests {
    /// A sign-in body whose passphrase (bounded at 1024 bytes) is `passphrase`.
    static func signIn(passphrase: [UInt8]) -> [UInt8] {
        FieldBoundTests.loginBody(passphrase: passphrase)
    }

    /// A slot body whose service (an enumeration, bounded at 4096 bytes) has the name `name`.
    static func slot(serviceName name: [UInt8]) -> [UInt8] {
        var slot = BodyWriter()
        slot.write(1, "c_1")
        slot.writeKey(2, .lengthDelimited)
        name.writeValue(to: &slot.buffer)
        slot.write(3, Timestamp.epoch)
        slot.write(4, Timestamp.epoch)
        return slot.buffer.bytes
    }

    @Test(arguments: [0, 1, 127, 128, 1023, 1024])
    func aStringWithinItsBound_decodes(length: Int) throws {
        let input = try Specimen.SignInInput(decoding: Self.signIn(passphrase: Array(repeating: 0x70, count: length)))
        #expect(input.passphrase == String(repeating: "p", count: length))
    }

    @Test func aStringOneByteOverItsBound_isRefused() {
        let error = #expect(throws: WireDecodingError.self) {
            try Specimen.SignInInput(decoding: Self.signIn(passphrase: Array(repeating: 0x70, count: 1025)))
        }
        #expect(error?.description == "specimen.SignInInput.passphrase: 1025 bytes, over its bound of 1024 bytes")
    }

    /// 341 invalid bytes become 1023 bytes of U+FFFD, within 1024; 342 become 1026, over it.
    @Test func invalidUTF8_atAThirdOfTheBound_decodes_andOneByteMore_isRefused() throws {
        let within = try Specimen.SignInInput(decoding: Self.signIn(passphrase: Array(repeating: 0xFF, count: 341)))
        #expect(within.passphrase.utf8.count == 1023)
        let error = #expect(throws: WireDecodingError.self) {
            try Specimen.SignInInput(decoding: Self.signIn(passphrase: Array(repeating: 0xFF, count: 342)))
        }
        #expect(error?.description.contains("1026 bytes, over its bound of 1024 bytes") == true)
    }

    @Test(arguments: [1, 127, 128, 5000])
    func aLengthThatClaimsMoreThanRemains_isTruncation(claimed: Int) {
        var body = BodyWriter()
        body.write(1, "ada@example.org")
        body.writeKey(2, .lengthDelimited)
        body.buffer.writeVarint(UInt64(claimed))
        body.buffer.writeBytes(Array(repeating: 0x70, count: claimed - 1))
        let error = #expect(throws: WireDecodingError.self) { try Specimen.SignInInput(decoding: body.buffer.bytes) }
        #expect(error?.code == .truncated)
        #expect(error?.fieldPath == "specimen.SignInInput.passphrase")
    }

    @Test func aStringOfTheWrongWireType_isRefused() {
        var body = BodyWriter()
        body.write(1, "ada@example.org")
        body.write(2, 42)
        let error = #expect(throws: WireDecodingError.self) { try Specimen.SignInInput(decoding: body.buffer.bytes) }
        #expect(error?.code == .wrongWireType)
    }

    @Test func aKnownEnumerationName_decodesToItsCase() throws {
        let input = try Specimen.CheckSlotInput(decoding: Self.slot(serviceName: Array("gp".utf8)))
        #expect(input.service == .gp)
    }

    @Test func theGeneratedLookup_findsEveryKnownCaseByItsBytes_andNothingElse() {
        func lookUp(_ name: String) -> Specimen.Service? {
            Array(name.utf8).withUnsafeBufferPointer { Specimen.Service.knownCase(named: $0) }
        }
        for known in Specimen.Service.knownCases {
            #expect(lookUp(known.wireName) == known)
        }
        for stranger in ["", "g", "gq", "pg", "GP", "gpx", "dentisT"] {
            #expect(lookUp(stranger) == nil, "\(stranger)")
        }
    }

    @Test(arguments: [0, 1, 4096])
    func anUnknownEnumerationNameWithinItsBound_isKept(length: Int) throws {
        let input = try Specimen.CheckSlotInput(
            decoding: Self.slot(serviceName: Array(repeating: 0x73, count: length)))
        #expect(input.service == .unknown(String(repeating: "s", count: length)))
    }

    @Test func anEnumerationNameOneByteOverItsBound_isRefused() {
        let error = #expect(throws: WireDecodingError.self) {
            try Specimen.CheckSlotInput(decoding: Self.slot(serviceName: Array(repeating: 0x73, count: 4097)))
        }
        #expect(error?.description == "specimen.CheckSlotInput.service: 4097 bytes, over its bound of 4096 bytes")
    }

    @Test func anEnumerationNameThatClaimsMoreThanRemains_isTruncation() {
        var body = BodyWriter()
        body.write(1, "c_1")
        body.writeKey(2, .lengthDelimited)
        body.buffer.writeVarint(3)
        body.buffer.writeBytes(Array("gp".utf8))
        let error = #expect(throws: WireDecodingError.self) { try Specimen.CheckSlotInput(decoding: body.buffer.bytes) }
        #expect(error?.code == .truncated)
        #expect(error?.fieldPath == "specimen.CheckSlotInput.service")
    }

    /// A reader whose `end` was set past its storage must still refuse, not read past the array.
    @Test func aReaderWhoseEndPassesItsStorage_refusesTheText() {
        let bytes = Self.signIn(passphrase: Array("correct horse".utf8))
        var reader = BodyReader(ByteReader(Array(bytes.dropLast(3))))
        reader.bytes.end = bytes.count
        #expect(throws: WireDecodingError.self) { try Specimen.SignInInput(from: &reader) }
    }
}
