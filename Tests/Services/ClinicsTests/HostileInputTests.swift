import Foundation
import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import ClinicsService

/// What once stopped clinics with SIGILL, and its neighbours: extreme instants, slots that end
/// before they start, text of one heavy character. Each is a typed error, never a trap.
@Suite("Clinics given hostile input")
struct ClinicsHostileInputTests {
    /// About the year −290000 and +290000: their distance does not fit in Int64 microseconds.
    static let ancient = Timestamp(microsecondsSinceEpoch: -9_151_000_000_000_000_000)
    static let remote = Timestamp(microsecondsSinceEpoch: 9_151_000_000_000_000_000)

    /// "a" and 100,000 combining acute accents: one `Character`, 200,001 bytes.
    static let oneHeavyCharacter = "a" + String(repeating: "\u{301}", count: 100_000)

    @Test func checkSlot_theAttack_isInvalidInputOnTheWire_namingTheField() async throws {
        let world = try World.fixture()
        let clinic = try await world.given()
        let router = Endpoint.routes(world: world)

        let error = await #expect(throws: ServiceError.self) {
            try await router.serveInProcess(
                Clinics.checkSlot,
                .init(clinicID: clinic.id, service: .gp, startsAt: Self.ancient, endsAt: Self.remote))
        }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "startsAt")
        #expect(error?.message.contains("0001-01-01T00:00:00Z...9999-12-31T23:59:59.999999Z") == true)
    }

    @Test(arguments: [
        (ancient, remote, "startsAt"),
        (Timestamp(microsecondsSinceEpoch: Int64.min), Timestamp(microsecondsSinceEpoch: Int64.max), "startsAt"),
        (Timestamp.at("2026-11-23T09:00:00Z"), remote, "endsAt"),
        (Timestamp.at("2026-11-23T09:30:00Z"), Timestamp.at("2026-11-23T09:00:00Z"), "endsAt"),
        (Timestamp.at("2026-11-23T09:00:00Z"), Timestamp.at("2026-11-23T09:00:00Z"), "endsAt"),
    ])
    func checkSlot_anImpossibleSlot_isATypedError_evenInProcess(start: Timestamp, end: Timestamp, field: String)
        async throws
    {
        let world = try World.fixture()
        let clinic = try await world.given()

        let error = await #expect(throws: ClinicError.self) {
            try await CheckSlot(world: world).execute(clinicID: clinic.id, service: .gp, startsAt: start, endsAt: end)
        }

        guard case .invalid(let named, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(named == field)
    }

    @Test func openingSchedule_throwsInsteadOfTrapping_andSaysAYearLongSlotIsClosed() throws {
        let allWeek = Clinics.Weekday.knownCases.map { Clinics.OpeningHours(weekday: $0, opens: 0, closes: 1440) }
        let schedule = try #require(OpeningSchedule(hours: allWeek, timeZone: "Europe/London"))
        #expect(throws: ClinicError.self) { try schedule.check(from: Self.ancient, to: Self.remote) }
        #expect(throws: ClinicError.self) {
            try schedule.check(from: .at("2026-11-23T10:00:00Z"), to: .at("2026-11-23T09:00:00Z"))
        }
        let verdict = try schedule.check(from: Timestamp.earliest, to: Timestamp.latest)
        guard case .closed(let reason) = verdict else { Issue.record("a slot of 9999 years is open"); return }
        #expect(reason.contains("longer than a day"))
        // The last day the wire carries, in a zone with daylight saving: no conversion traps.
        #expect(try schedule.check(from: .at("9999-12-31T10:00:00Z"), to: .at("9999-12-31T11:00:00Z")) == .open)
        #expect(try schedule.check(from: .at("0001-01-01T10:00:00Z"), to: .at("0001-01-01T11:00:00Z")) == .open)
    }

    @Test func openingSchedule_leavesOutHoursOutsideTheDay() throws {
        let hours = [Clinics.OpeningHours(weekday: .monday, opens: Int.min, closes: Int.max)]
        let schedule = try #require(OpeningSchedule(hours: hours, timeZone: "UTC"))
        #expect(schedule.periods.isEmpty)
    }

    @Test func create_aNameOfOneHeavyCharacter_isRefusedByItsBytes() async throws {
        let world = try World.fixture()
        let draft = ClinicDraft.fixture(name: Self.oneHeavyCharacter)
        #expect(throws: ClinicError.invalid(field: "name", reason: "must be at most 4096 bytes")) {
            try draft.validated()
        }
        let error = await #expect(throws: ServiceError.self) {
            try await Endpoint.routes(world: world).serveInProcess(
                Clinics.create,
                .init(
                    token: Tokens.admin, name: Self.oneHeavyCharacter, address: "1 Hill Road", latitude: 51.5,
                    longitude: 0, timeZone: "Europe/London", services: [.gp], hours: []))
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "name")
    }

    @Test func search_aNameOfOneHeavyCharacter_isRefusedBeforeItIsFolded() async throws {
        let world = try World.fixture()
        let error = await #expect(throws: ClinicError.self) {
            try await SearchClinics(world: world).execute(name: Self.oneHeavyCharacter, limit: 10)
        }
        guard case .invalid(let field, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(field == "name")
    }

    @Test func theDomainsByteLimit_isTheContractsBound() {
        for name in ["name", "address", "timeZone", "phone"] {
            #expect(Clinics.CreateInput.schema.field(named: name)?.maxBytes == ClinicDraft.maxTextBytes)
        }
        #expect(Clinics.SearchInput.schema.field(named: "name")?.maxBytes == ClinicDraft.maxTextBytes)
    }
}
