import IOInterface
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

    static func loginBody(email: String = "ada@example.org", password: [UInt8]) -> [UInt8] {
        var body = BodyWriter()
        body.write(1, email)
        body.writeKey(2, .lengthDelimited)
        password.writeValue(to: &body.buffer)
        return body.buffer.bytes
    }

    @Test func oneCharacter_canBeHundredsOfKilobytes() {
        #expect(Self.oneHeavyCharacter.count == 1)
        #expect(Self.oneHeavyCharacter.utf8.count == 200_001)
    }

    @Test func theSchema_carriesTheDeclaredAndTheDefaultBound() {
        let login = Identity.LoginInput.schema
        #expect(login.field(named: "password")?.maxBytes == 1024)
        #expect(login.field(named: "email")?.maxBytes == 4096)
        #expect(Records.AddEntryInput.schema.field(named: "text")?.maxBytes == 65_536)
        #expect(Records.AddEntryInput.schema.field(named: "kind")?.maxBytes == 4096)
        #expect(Notifications.SendInput.schema.field(named: "body")?.maxBytes == 16_384)
        #expect(Clinics.CheckSlotInput.schema.field(named: "startsAt")?.maxBytes == nil)
        // Outputs have no bound: a reader never refuses what an older writer stored.
        #expect(Clinics.Clinic.schema.fields.allSatisfy { $0.maxBytes == nil })
    }

    @Test(arguments: [1024, 1023])
    func aPasswordAtItsBound_decodes(length: Int) throws {
        let input = try Identity.LoginInput(decoding: Self.loginBody(password: Array(repeating: 0x61, count: length)))
        #expect(input.password.utf8.count == length)
    }

    @Test func aPasswordOverItsBound_isRefusedByTheDirectDecoder_namingFieldAndBound() {
        let body = Self.loginBody(password: Array(repeating: 0x61, count: 1025))
        let error = #expect(throws: WireDecodingError.self) { try Identity.LoginInput(decoding: body) }
        #expect(error?.fieldPath == "identity.LoginInput.password")
        #expect(error?.description == "identity.LoginInput.password: 1025 bytes, over its bound of 1024 bytes")
    }

    @Test func invalidUTF8_isBoundedOnceReplaced() {
        // 400 bytes of 0xFF are 400 U+FFFDs: 1200 bytes of UTF-8, over the password's 1024.
        let body = Self.loginBody(password: Array(repeating: 0xFF, count: 400))
        let error = #expect(throws: WireDecodingError.self) { try Identity.LoginInput(decoding: body) }
        #expect(error?.description.contains("1200 bytes, over its bound of 1024 bytes") == true)
        #expect(throws: WireDecodingError.self) { try MessageValue(decoding: body, as: Identity.LoginInput.schema) }
    }

    @Test func aCombiningMarkString_isRefusedByEveryDecoder() throws {
        let body = Self.loginBody(email: Self.oneHeavyCharacter, password: Array("correct horse".utf8))
        let direct = #expect(throws: WireDecodingError.self) { try Identity.LoginInput(decoding: body) }
        #expect(direct?.description == "identity.LoginInput.email: 200001 bytes, over its bound of 4096 bytes")
        let generic = #expect(throws: WireDecodingError.self) {
            try MessageValue(decoding: body, as: Identity.LoginInput.schema)
        }
        #expect(generic?.fieldPath == "identity.LoginInput.email")
        let json = JSONValue.object([("email", .string(Self.oneHeavyCharacter)), ("password", .string("x"))])
            .serialized()
        let fromJSON = #expect(throws: WireValueError.self) { try Identity.LoginInput(json: json) }
        #expect(fromJSON?.code == .outOfRange)
        #expect(fromJSON?.description == "field \"email\": 200001 bytes, over its bound of 4096 bytes")
    }

    @Test func eachElementOfAList_andAnEnumerationsName_areBounded() {
        var ids = BodyWriter()
        ids.write(1, ["c_1", String(repeating: "x", count: 4097)])
        let list = #expect(throws: WireDecodingError.self) { try Clinics.GetManyInput(decoding: ids.buffer.bytes) }
        #expect(list?.fieldPath == "clinics.GetManyInput.ids")
        #expect(throws: WireDecodingError.self) {
            try MessageValue(decoding: ids.buffer.bytes, as: Clinics.GetManyInput.schema)
        }

        var slot = BodyWriter()
        slot.write(1, "c_1")
        slot.write(2, Clinics.Service.unknown(String(repeating: "s", count: 5000)))
        slot.write(3, Timestamp.epoch)
        slot.write(4, Timestamp.epoch)
        let service = #expect(throws: WireDecodingError.self) { try Clinics.CheckSlotInput(decoding: slot.buffer.bytes) }
        #expect(service?.fieldPath == "clinics.CheckSlotInput.service")
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
        let direct = #expect(throws: WireDecodingError.self) { try Clinics.CheckSlotInput(decoding: slot.buffer.bytes) }
        #expect(direct?.description.contains("6000 bytes, over its bound of 4096 bytes") == true)
        #expect(throws: WireDecodingError.self) {
            try MessageValue(decoding: slot.buffer.bytes, as: Clinics.CheckSlotInput.schema)
        }
    }

    @Test func anOutput_keepsALongString() throws {
        let clinic = Clinics.Clinic(
            id: "c_1", name: String(repeating: "n", count: 10_000), address: "1 Hill Road", latitude: 0, longitude: 0,
            timeZone: "UTC", services: [.gp], hours: [], createdAt: .epoch)
        #expect(try Clinics.Clinic(decoding: clinic.encodedBody()) == clinic)
    }

    @Test func theGenericEncoder_refusesToSendAValueOverItsBound() {
        let value: MessageValue = [1: .string("ada@example.org"), 2: .string(String(repeating: "p", count: 2000))]
        let error = #expect(throws: WireValueError.self) { try value.encoded(as: Identity.LoginInput.schema) }
        #expect(error?.path == "password")
    }
}
