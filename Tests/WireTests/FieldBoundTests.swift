import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsWire

/// Every string, bytes and enumeration field of an Input is bounded in bytes (declared in its
/// contract, or 4096): the direct decoder, the generic one and the JSON form refuse a longer
/// value before any code sees it, naming the field and the bound. Characters are not bytes: one
/// `Character` can carry any number of combining marks.
@Suite("Bounds on the text of Inputs")
struct FieldBoundTests {
    /// "a" and 100,000 combining acute accents: one `Character`, 200,001 bytes of UTF-8.
    static let oneHeavyCharacter = "a" + String(repeating: "\u{301}", count: 100_000)

    static func loginBody(account: String = "ada@example.org", passphrase: [UInt8]) -> [UInt8] {
        var body = BodyWriter()
        body.write(1, account)
        body.writeKey(2, .lengthDelimited)
        passphrase.writeValue(to: &body.buffer)
        return body.buffer.bytes
    }

    @Test func oneCharacter_canBeHundredsOfKilobytes() {
        #expect(Self.oneHeavyCharacter.count == 1)
        #expect(Self.oneHeavyCharacter.utf8.count == 200_001)
    }

    @Test func theSchema_carriesTheDeclaredAndTheDefaultBound() {
        let login = Specimen.SignInInput.schema
        #expect(login.field(named: "passphrase")?.maxBytes == 1024)
        #expect(login.field(named: "account")?.maxBytes == 4096)
        #expect(Specimen.NoteInput.schema.field(named: "text")?.maxBytes == 65_536)
        #expect(Specimen.NoteInput.schema.field(named: "kind")?.maxBytes == 4096)
        #expect(Specimen.NoteInput.schema.field(named: "summary")?.maxBytes == 16_384)
        #expect(Specimen.CheckSlotInput.schema.field(named: "startsAt")?.maxBytes == nil)
        // Outputs have no bound: a reader never refuses what an older writer stored.
        #expect(Specimen.Site.schema.fields.allSatisfy { $0.maxBytes == nil })
    }

    @Test(arguments: [1024, 1023])
    func aPassphraseAtItsBound_decodes(length: Int) throws {
        let input = try Specimen.SignInInput(
            decoding: Self.loginBody(passphrase: Array(repeating: 0x61, count: length)))
        #expect(input.passphrase.utf8.count == length)
    }

    @Test func aPassphraseOverItsBound_isRefusedByTheDirectDecoder_namingFieldAndBound() {
        let body = Self.loginBody(passphrase: Array(repeating: 0x61, count: 1025))
        let error = #expect(throws: WireDecodingError.self) { try Specimen.SignInInput(decoding: body) }
        #expect(error?.fieldPath == "specimen.SignInInput.passphrase")
        #expect(error?.description == "specimen.SignInInput.passphrase: 1025 bytes, over its bound of 1024 bytes")
    }

    @Test func invalidUTF8_isBoundedOnceReplaced() {
        // 400 bytes of 0xFF are 400 U+FFFDs: 1200 bytes of UTF-8, over the passphrase's 1024.
        let body = Self.loginBody(passphrase: Array(repeating: 0xFF, count: 400))
        let error = #expect(throws: WireDecodingError.self) { try Specimen.SignInInput(decoding: body) }
        #expect(error?.description.contains("1200 bytes, over its bound of 1024 bytes") == true)
        #expect(throws: WireDecodingError.self) { try MessageValue(decoding: body, as: Specimen.SignInInput.schema) }
    }

    @Test func aCombiningMarkString_isRefusedByEveryDecoder() throws {
        let body = Self.loginBody(account: Self.oneHeavyCharacter, passphrase: Array("correct horse".utf8))
        let direct = #expect(throws: WireDecodingError.self) { try Specimen.SignInInput(decoding: body) }
        #expect(direct?.description == "specimen.SignInInput.account: 200001 bytes, over its bound of 4096 bytes")
        let generic = #expect(throws: WireDecodingError.self) {
            try MessageValue(decoding: body, as: Specimen.SignInInput.schema)
        }
        #expect(generic?.fieldPath == "specimen.SignInInput.account")
        let json = JSONValue.object([("account", .string(Self.oneHeavyCharacter)), ("passphrase", .string("x"))])
            .serialized()
        let fromJSON = #expect(throws: WireValueError.self) { try Specimen.SignInInput(json: json) }
        #expect(fromJSON?.code == .outOfRange)
        #expect(fromJSON?.description == "field \"account\": 200001 bytes, over its bound of 4096 bytes")
    }

    @Test func eachElementOfAList_andAnEnumerationsName_areBounded() {
        var ids = BodyWriter()
        ids.write(1, ["c_1", String(repeating: "x", count: 4097)])
        let list = #expect(throws: WireDecodingError.self) { try Specimen.GetManyInput(decoding: ids.buffer.bytes) }
        #expect(list?.fieldPath == "specimen.GetManyInput.ids")
        #expect(throws: WireDecodingError.self) {
            try MessageValue(decoding: ids.buffer.bytes, as: Specimen.GetManyInput.schema)
        }

        var slot = BodyWriter()
        slot.write(1, "c_1")
        slot.write(2, Specimen.Service.unknown(String(repeating: "s", count: 5000)))
        slot.write(3, Timestamp.epoch)
        slot.write(4, Timestamp.epoch)
        let service = #expect(throws: WireDecodingError.self) {
            try Specimen.CheckSlotInput(decoding: slot.buffer.bytes)
        }
        #expect(service?.fieldPath == "specimen.CheckSlotInput.service")
    }

    /// What the body fuzzer requires: whatever decodes, encodes to bytes that decode again. An
    /// unknown case name of invalid UTF-8 grows threefold once repaired, so it is bounded as decoded.
    @Test func anEnumerationsName_ofInvalidUTF8_isBoundedOnceReplaced() {
        var slot = BodyWriter()
        slot.write(1, "c_1")
        slot.writeKey(2, .lengthDelimited)
        [UInt8](repeating: 0xFF, count: 2000).writeValue(to: &slot.buffer)
        slot.write(3, Timestamp.epoch)
        slot.write(4, Timestamp.epoch)
        let direct = #expect(throws: WireDecodingError.self) {
            try Specimen.CheckSlotInput(decoding: slot.buffer.bytes)
        }
        #expect(direct?.description.contains("6000 bytes, over its bound of 4096 bytes") == true)
        #expect(throws: WireDecodingError.self) {
            try MessageValue(decoding: slot.buffer.bytes, as: Specimen.CheckSlotInput.schema)
        }
    }

    @Test func anOutput_keepsALongString() throws {
        let site = Specimen.Site(
            id: "c_1", name: String(repeating: "n", count: 10_000), address: "1 Hill Road", latitude: 0, longitude: 0,
            timeZone: "UTC", services: [.gp], hours: [], createdAt: .epoch)
        #expect(try Specimen.Site(decoding: site.encodedBody()) == site)
    }

    @Test func theGenericEncoder_refusesToSendAValueOverItsBound() {
        let value: MessageValue = [1: .string("ada@example.org"), 2: .string(String(repeating: "p", count: 2000))]
        let error = #expect(throws: WireValueError.self) { try value.encoded(as: Specimen.SignInInput.schema) }
        #expect(error?.path == "passphrase")
    }
}
