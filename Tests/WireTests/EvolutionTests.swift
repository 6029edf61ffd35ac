import Testing
import VerticalsWire

// Two versions of one message, as an older and a newer peer would compile them.
// V2 adds a defaulted field, an optional field and a new enum case.

private enum PlanV1: WireEnum {
    case basic, premium
    case unknown(String)
    static let knownCases: [PlanV1] = [.basic, .premium]
    static let schema = EnumSchema("test.Plan", knownCases)
    init(unknown raw: String) { self = .unknown(raw) }
    var wireName: String {
        switch self {
        case .basic: "basic"
        case .premium: "premium"
        case .unknown(let raw): raw
        }
    }
}

private enum PlanV2: WireEnum {
    case basic, premium, family
    case unknown(String)
    static let knownCases: [PlanV2] = [.basic, .premium, .family]
    static let schema = EnumSchema("test.Plan", knownCases)
    init(unknown raw: String) { self = .unknown(raw) }
    var wireName: String {
        switch self {
        case .basic: "basic"
        case .premium: "premium"
        case .family: "family"
        case .unknown(let raw): raw
        }
    }
}

private struct ProfileV1: WireMessage {
    var name: String
    var plan: PlanV1

    static let schema = MessageSchema(
        "test.Profile", [.required(1, "name", .string), .required(2, "plan", .enumeration(PlanV1.schema))])

    init(name: String, plan: PlanV1) {
        self.name = name
        self.plan = plan
    }

    func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, plan)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var plan: PlanV1?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: plan = try body.read()
            default: try body.skip()
            }
        }
        self.init(name: try body.required(name, 1), plan: try body.required(plan, 2))
    }
}

private struct ProfileV2: WireMessage {
    var name: String
    var plan: PlanV2
    var visits: Int
    var nickname: String?

    static let schema = MessageSchema(
        "test.Profile",
        [
            .required(1, "name", .string), .required(2, "plan", .enumeration(PlanV2.schema)),
            .defaulted(3, "visits", .int, .int(1)), .optional(4, "nickname", .string),
        ])

    init(name: String, plan: PlanV2, visits: Int = 1, nickname: String? = nil) {
        self.name = name
        self.plan = plan
        self.visits = visits
        self.nickname = nickname
    }

    func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, plan)
        body.write(3, visits)
        body.write(4, nickname)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var plan: PlanV2?
        var visits = 1
        var nickname: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: plan = try body.read()
            case 3: visits = try body.read()
            case 4: nickname = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            name: try body.required(name, 1), plan: try body.required(plan, 2), visits: visits, nickname: nickname)
    }
}

@Suite("Evolution between two versions of a message")
struct EvolutionTests {
    @Test func olderReader_givenNewerBytes_skipsTheFieldsItDoesNotKnow() throws {
        let newer = ProfileV2(name: "Ada", plan: .premium, visits: 7, nickname: "A")
        #expect(try ProfileV1(decoding: newer.encodedBody()) == ProfileV1(name: "Ada", plan: .premium))
    }

    @Test func newerReader_givenOlderBytes_takesTheDefaults() throws {
        let older = ProfileV1(name: "Ada", plan: .basic)
        let read = try ProfileV2(decoding: older.encodedBody())
        #expect(read == ProfileV2(name: "Ada", plan: .basic, visits: 1, nickname: nil))
    }

    @Test func olderReader_givenANewEnumCase_keepsItAsUnknownAndWritesItBackUnchanged() throws {
        let newer = ProfileV2(name: "Ada", plan: .family)
        let older = try ProfileV1(decoding: newer.encodedBody())
        #expect(older.plan == .unknown("family"))
        #expect(!older.plan.isKnown)

        let relayed = older.encodedBody()
        var expected = BodyWriter()
        expected.write(1, "Ada")
        expected.write(2, "family")
        #expect(relayed == expected.buffer.bytes, "the unknown case travels on byte for byte")
        #expect(try ProfileV2(decoding: relayed).plan == .family)
        #expect(try older.jsonString() == #"{"name":"Ada","plan":"family"}"#)
    }

    @Test func genericDecoder_withTheOlderSchema_skipsNewFieldsUnlessStrict() throws {
        let body = ProfileV2(name: "Ada", plan: .family, visits: 2, nickname: "A").encodedBody()
        let lenient = try MessageValue(decoding: body, as: ProfileV1.schema)
        #expect(lenient == [1: .string("Ada"), 2: .enumeration("family")])

        let error = try #require(throws: WireDecodingError.self) {
            try MessageValue(decoding: body, as: ProfileV1.schema, strict: true)
        }
        #expect(error.fieldPath == "test.Profile.#3")
    }

    @Test func genericDecoder_withTheNewerSchema_fillsDefaultsIntoOlderBytes() throws {
        let body = ProfileV1(name: "Ada", plan: .basic).encodedBody()
        let value = try MessageValue(decoding: body, as: ProfileV2.schema, strict: true)
        #expect(value == [1: .string("Ada"), 2: .enumeration("basic"), 3: .int(1)])
        #expect(try value.encoded(as: ProfileV2.schema) == ProfileV2(name: "Ada", plan: .basic).encodedBody())
    }

    @Test func bothVersions_conformToTheirSchemas() {
        #expect(SchemaConformance.check(ProfileV1(name: "Ada", plan: .unknown("family"))) == [])
        #expect(SchemaConformance.check(ProfileV2(name: "Ada", plan: .family, visits: 0, nickname: "")) == [])
    }
}
