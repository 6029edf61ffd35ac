import IOInterface
import Testing
import Wire

@Suite("Enumeration cases an Input must know")
struct KnownEnumerationTests {
    @Test func aCaseTheEnumerationHas_passes() throws {
        let input = try MessageValue(
            json: #"{"latitude": 51.5, "longitude": -0.12, "service": "dentist"}"#, as: Clinics.NearestInput.schema)
        try input.requireKnownEnumerations(as: Clinics.NearestInput.schema)
    }

    @Test func aCaseTheEnumerationLacks_isRefused_namingTheFieldAndTheCases() throws {
        let schema = Clinics.NearestInput.schema
        let input = try MessageValue(json: #"{"latitude": 51.5, "longitude": -0.12, "service": "surgery"}"#, as: schema)
        let error = #expect(throws: WireValueError.self) { try input.requireKnownEnumerations(as: schema) }
        #expect(error?.code == .invalidValue)
        #expect(error?.path == "service")
        #expect(error?.description.contains("\"surgery\" is not a case of clinics.Service") == true)
        #expect(error?.description.contains("gp, pharmacy, dentist") == true)
    }

    @Test func anUnknownCaseInsideAListOfMessages_isNamedByItsPath() throws {
        let schema = Clinics.CreateInput.schema
        let input = try MessageValue(
            json: """
                {"token": "t", "name": "Hill", "address": "1 Hill St", "latitude": 51.5, "longitude": -0.12,
                 "timeZone": "Europe/London", "services": ["gp"],
                 "hours": [{"weekday": "monday", "opens": 480, "closes": 1080},
                           {"weekday": "caturday", "opens": 480, "closes": 1080}]}
                """, as: schema)
        let error = #expect(throws: WireValueError.self) { try input.requireKnownEnumerations(as: schema) }
        #expect(error?.path == "hours[1].weekday")
        #expect(error?.description.contains("monday, tuesday") == true)
    }

    @Test func schemasWithoutEnumerations_needNoCheck() {
        #expect(!Clinics.SearchInput.schema.containsEnumerations)
        #expect(Clinics.NearestInput.schema.containsEnumerations)
    }
}
