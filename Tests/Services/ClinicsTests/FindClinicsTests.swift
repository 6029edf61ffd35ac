import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
@testable import ClinicsService

@Suite("Finding clinics: get, getMany, search, nearest")
struct FindClinicsTests {
    // MARK: get and getMany

    @Test func get_anUnknownID_failsWithNotFoundNamingTheID() async throws {
        let world = try World.fixture()

        let error = await wireError { _ = try await GetClinics(world: world).execute(id: "c_nope") }

        #expect(error?.code == .notFound)
        #expect(error?.detail("id") == "c_nope")
    }

    @Test func getMany_answersInTheOrderAsked_leavingOutUnknownIDsAndDuplicates() async throws {
        let world = try World.fixture()
        let a = try await world.given(.fixture(name: "A"))
        let b = try await world.given(.fixture(name: "B"))

        let found = try await GetClinics(world: world).execute(ids: [b.id, "c_missing", a.id, b.id])

        #expect(found.map(\.id) == [b.id, a.id])
        #expect(found.first == b)
    }

    @Test func getMany_ofNothing_isEmpty() async throws {
        let world = try World.fixture()
        #expect(try await GetClinics(world: world).execute(ids: []).isEmpty)
    }

    @Test func getMany_ofTooManyIDs_failsWithInvalidInput() async throws {
        let world = try World.fixture()
        let ids = (0...GetClinics.maxIDs).map { "c_\($0)" }

        let error = await wireError { _ = try await GetClinics(world: world).execute(ids: ids) }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "ids")
    }

    // MARK: search

    @Test(arguments: ["street", "STREET", "Hill St", "surgery", "ÉTOILE"])
    func search_matchesASubstringIgnoringCase(text: String) async throws {
        let world = try World.fixture()
        try await world.given(.fixture(name: "Hill Street Surgery"))
        try await world.given(.fixture(name: "Clinique Étoile Street Surgery"))
        try await world.given(.fixture(name: "Deansgate Pharmacy"))

        let found = try await SearchClinics(world: world).execute(name: text, limit: 10).clinics

        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.name.lowercased().contains(text.lowercased()) })
        #expect(!found.contains { $0.name == "Deansgate Pharmacy" })
    }

    @Test func search_ordersByName_andHonoursTheLimit() async throws {
        let world = try World.fixture()
        for name in ["Charlie Clinic", "alpha clinic", "Bravo Clinic"] { try await world.given(.fixture(name: name)) }

        let found = try await SearchClinics(world: world).execute(name: "clinic", limit: 2).clinics

        #expect(found.map(\.name) == ["alpha clinic", "Bravo Clinic"])
    }

    @Test func search_treatsWildcardsLiterally() async throws {
        let world = try World.fixture()
        try await world.given(.fixture(name: "Hill Street Surgery"))

        #expect(try await SearchClinics(world: world).execute(name: "%", limit: 10).clinics.isEmpty)
        #expect(try await SearchClinics(world: world).execute(name: "_", limit: 10).clinics.isEmpty)
    }

    @Test(arguments: [0, -1, 101])
    func search_withALimitOutOf1To100_failsWithInvalidInput(limit: Int) async throws {
        let world = try World.fixture()

        let error = await wireError { _ = try await SearchClinics(world: world).execute(name: "", limit: limit) }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "limit")
    }

    // MARK: nearest

    @Test func distance_fromLondonToManchester_isAbout262Kilometres() {
        let metres = Places.london.distance(to: Places.manchester)
        #expect(abs(metres - 262_000) <= 2_620, "\(metres) m")
        #expect(Places.manchester.distance(to: Places.london) == metres)
        #expect(Places.london.distance(to: Places.london) == 0)
    }

    @Test func distance_ofAntipodes_isHalfTheEarthsCircumference() {
        let metres = Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: 0, longitude: 180))
        #expect(abs(metres - .pi * Coordinate.earthRadiusMetres) < 0.001)
        let acrossTheAntimeridian = Coordinate(latitude: 0, longitude: 179.5).distance(
            to: Coordinate(latitude: 0, longitude: -179.5))
        #expect(abs(acrossTheAntimeridian - 111_195) < 10, "one degree of the equator, not 359")
    }

    @Test func nearest_ordersByGreatCircleDistance_withEachDistance() async throws {
        let world = try World.fixture()
        for (name, place) in [
            ("Edinburgh", Places.edinburgh), ("London", Places.london), ("Cardiff", Places.cardiff),
            ("Manchester", Places.manchester),
        ] {
            try await world.given(.fixture(name: name, latitude: place.latitude, longitude: place.longitude))
        }

        let found = try await FindNearestClinics(world: world).execute(point: Places.london, limit: 10, service: nil)

        #expect(found.map(\.clinic.name) == ["London", "Cardiff", "Manchester", "Edinburgh"])
        #expect(found[0].distanceMetres == 0)
        #expect(abs(found[2].distanceMetres - 262_000) <= 2_620)
        #expect(found[2].distanceMetres == Places.london.distance(to: Places.manchester))
        #expect(found.map(\.distanceMetres) == found.map(\.distanceMetres).sorted())
    }

    @Test func nearest_withAService_returnsOnlyClinicsOfferingIt() async throws {
        let world = try World.fixture()
        try await world.given(.fixture(name: "Close GP", latitude: 51.5075, longitude: -0.1278, services: [.gp]))
        try await world.given(
            .fixture(
                name: "Far Pharmacy", latitude: Places.manchester.latitude, longitude: Places.manchester.longitude,
                services: [.pharmacy]))
        try await world.given(.fixture(name: "Mid Pharmacy", latitude: 52, longitude: -1, services: [.gp, .pharmacy]))

        let found = try await FindNearestClinics(world: world).execute(
            point: Places.london, limit: 5, service: .pharmacy)

        #expect(found.map(\.clinic.name) == ["Mid Pharmacy", "Far Pharmacy"])
        #expect(found.allSatisfy { $0.clinic.services.contains(.pharmacy) })
    }

    @Test func nearest_honoursTheLimit_andAnEmptyStoreFindsNothing() async throws {
        let world = try World.fixture()
        #expect(
            try await FindNearestClinics(world: world).execute(point: Places.london, limit: 3, service: nil).isEmpty)
        for index in 0..<5 { try await world.given(.fixture(latitude: 51 + Double(index) / 10)) }

        let found = try await FindNearestClinics(world: world).execute(point: Places.london, limit: 3, service: nil)

        #expect(found.count == 3)
    }

    @Test(arguments: [
        (Coordinate(latitude: 91, longitude: 0), "latitude"), (Coordinate(latitude: 0, longitude: -180.1), "longitude"),
        (Coordinate(latitude: .nan, longitude: 0), "latitude"),
    ])
    func nearest_ofAnImpossiblePoint_failsWithInvalidInputNamingTheField(point: Coordinate, field: String) async throws
    {
        let world = try World.fixture()

        let error = await wireError {
            _ = try await FindNearestClinics(world: world).execute(point: point, limit: 5, service: nil)
        }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == field)
    }
}
