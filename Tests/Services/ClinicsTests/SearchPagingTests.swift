import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
@testable import ClinicsService

@Suite("clinics.search, a page at a time")
struct SearchPagingTests {
    @Test func pagingThroughASearch_withClinicsCreatedBetweenPages_returnsEveryClinicOnce_byName() async throws {
        let world = try World.fixture()
        var names = ["Echo Clinic", "alpha clinic", "Delta Clinic", "Bravo Clinic", "Golf Clinic", "Foxtrot Clinic"]
        // Two clinics of one name: the id orders them.
        names.append("Delta Clinic")
        for name in names { try await world.given(.fixture(name: name)) }

        var seen: [Clinics.Clinic] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await SearchClinics(world: world).execute(name: "clinic", limit: 3, cursor: cursor)
            seen += page.clinics
            cursor = page.nextCursor
            pages += 1
            // One clinic before the position (not seen in this pass), one after it (seen once, in order).
            try await world.given(.fixture(name: "Aardvark Clinic \(pages)"))
            if pages == 1 { try await world.given(.fixture(name: "Zulu Clinic")) }
        } while cursor != nil && pages < 10

        let expected = (names + ["Zulu Clinic"]).map { $0.lowercased() }.sorted()
        #expect(seen.map { $0.name.lowercased() } == expected)
        #expect(Set(seen.map(\.id)).count == seen.count)
        #expect(pages == 3)
    }

    @Test func aCursorOfAnotherSearch_orTampered_failsWithInvalidInput() async throws {
        let world = try World.fixture()
        for name in ["A Clinic", "B Clinic", "C Clinic"] { try await world.given(.fixture(name: name)) }
        let first = try await SearchClinics(world: world).execute(name: "clinic", limit: 2)
        let cursor = try #require(first.nextCursor)

        for (text, bad) in [("clin", cursor), ("clinic", cursor + "A"), ("clinic", "%%%")] {
            let error = await wireError {
                _ = try await SearchClinics(world: world).execute(name: text, limit: 2, cursor: bad)
            }
            #expect(error?.code == .invalidInput)
            #expect(error?.detail("field") == "cursor")
        }
    }
}
