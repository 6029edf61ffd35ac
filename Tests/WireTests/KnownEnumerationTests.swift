import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsWire

@Suite("Enumeration cases an Input must know")
struct KnownEnumerationTests {
    /// The body of `json` read as `schema`.
    private func body(_ json: String, _ schema: MessageSchema) throws -> [UInt8] {
        try MessageValue(json: json, as: schema).encoded(as: schema)
    }

    @Test func aCaseTheEnumerationHas_passes() throws {
        let schema = Specimen.NearestInput.schema
        try schema.requireKnownEnumerations(
            inBody: body(#"{"latitude": 51.5, "longitude": -0.12, "service": "dentist"}"#, schema))
    }

    @Test func aCaseTheEnumerationLacks_isRefused_namingTheFieldAndTheCases() throws {
        let schema = Specimen.NearestInput.schema
        let bytes = try body(#"{"latitude": 51.5, "longitude": -0.12, "service": "surgery"}"#, schema)
        let error = #expect(throws: WireValueError.self) { try schema.requireKnownEnumerations(inBody: bytes) }
        #expect(error?.code == .invalidValue)
        #expect(error?.path == "service")
        #expect(error?.description.contains("\"surgery\" is not a case of specimen.Service") == true)
        #expect(error?.description.contains("gp, pharmacy, dentist") == true)
    }

    @Test func theTypedEncoderOfAnUnknownCase_isRefusedTheSame() throws {
        let input = Specimen.NearestInput(latitude: 51.5, longitude: -0.12, service: .unknown("surgery"))
        let error = #expect(throws: WireValueError.self) {
            try Specimen.NearestInput.schema.requireKnownEnumerations(inBody: input.encodedBody())
        }
        #expect(error?.path == "service")
    }

    @Test(arguments: [
        (#"["gp", "surgery"]"#, #"[{"weekday": "monday", "opens": 480, "closes": 1080}]"#, "services[1]"),
        (
            #"["gp"]"#,
            #"[{"weekday": "monday", "opens": 480, "closes": 1080}, {"weekday": "caturday", "opens": 1, "closes": 2}]"#,
            "hours[1].weekday"
        ),
        (
            #"["gp"]"#,
            "[" + String(repeating: #"{"weekday": "monday", "opens": 480, "closes": 1080}, "#, count: 300)
                + #"{"weekday": "caturday", "opens": 1, "closes": 2}]"#,
            "hours[300].weekday"
        ),
    ])
    func anUnknownCaseInAList_isNamedByItsPath(services: String, hours: String, path: String) throws {
        let schema = Specimen.CreateInput.schema
        let bytes = try body(
            """
            {"token": "t", "name": "Hill", "address": "1 Hill St", "latitude": 51.5, "longitude": -0.12,
             "timeZone": "Europe/London", "services": \(services), "hours": \(hours)}
            """, schema)
        let error = #expect(throws: WireValueError.self) { try schema.requireKnownEnumerations(inBody: bytes) }
        #expect(error?.path == path)
    }

    @Test func schemasWithoutEnumerations_needNoCheck() {
        #expect(!Specimen.SearchInput.schema.containsEnumerations)
        #expect(Specimen.NearestInput.schema.containsEnumerations)
        #expect(Specimen.CreateInput.schema.containsEnumerations)
    }
}
