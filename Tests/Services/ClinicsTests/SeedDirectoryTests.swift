import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage

import VerticalsTesting
import VerticalsWire
@testable import ClinicsService

@Suite("The seed directory")
struct SeedDirectoryTests {
    @Test func seed_hasAtLeast60Clinics_eachValidAndInCanonicalForm() throws {
        #expect(SeedDirectory.clinics.count >= 60)
        for draft in SeedDirectory.clinics {
            let valid = try draft.validated()
            #expect(valid.services == draft.services, "\(draft.name)")
            #expect(valid.timeZone == "Europe/London")
            #expect(draft.phone != nil)
        }
        #expect(Set(SeedDirectory.clinics.map(\.name)).count == SeedDirectory.clinics.count, "names are unique")
    }

    @Test(arguments: [
        "London", "Manchester", "Birmingham", "Leeds", "Glasgow", "Edinburgh", "Bristol", "Cardiff", "Liverpool",
        "Newcastle",
    ])
    func seed_coversEachCity_withAGPAndAPharmacy(city: String) {
        let here = SeedDirectory.clinics.filter { $0.address.contains(city) }
        #expect(here.count >= 4)
        #expect(here.contains { $0.services.contains(.gp) })
        #expect(here.contains { $0.services.contains(.pharmacy) })
    }

    @Test func seed_mixesHours_someOpenOnSaturdays_pharmaciesLonger() {
        let openSaturday = SeedDirectory.clinics.filter { $0.hours.contains { $0.weekday == .saturday } }
        #expect(openSaturday.count >= 10)
        let weeklyMinutes = { (draft: ClinicDraft) in draft.hours.reduce(0) { $0 + $1.closes - $1.opens } }
        let pharmacies = SeedDirectory.clinics.filter { $0.services.contains(.pharmacy) }.map(weeklyMinutes)
        let surgeries = SeedDirectory.clinics.filter { $0.services == [.gp] }.map(weeklyMinutes)
        #expect(pharmacies.min()! > surgeries.max()!)
    }

    @Test func seededStore_holdsTheDirectory_withStableIDs() async throws {
        let world = try World.fixture(seedDirectory: true)

        #expect(try await world.clinics.count() == SeedDirectory.clinics.count)
        let first = try await GetClinics(world: world).execute(id: "c_0001")
        #expect(first.name == SeedDirectory.clinics[0].name)
    }

    @Test func unseededStore_isEmpty() async throws {
        let world = try World.fixture(seedDirectory: false)
        #expect(try await world.clinics.count() == 0)
    }

    @Test func seedMigration_runsOnce_evenWhenTheStoreIsMigratedAgain() throws {
        let migrator = Migrations.all(seedDirectory: true, seededAt: .epoch)
        let database = try SQLiteStore.inMemory(migrator: migrator)

        try migrator.migrate(database)

        let count = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM clinic") }
        #expect(count == SeedDirectory.clinics.count)
    }

    @Test func seedMigration_skippedOnce_staysSkipped() throws {
        let database = try SQLiteStore.inMemory(migrator: Migrations.all(seedDirectory: false, seededAt: .epoch))

        try Migrations.all(seedDirectory: true, seededAt: .epoch).migrate(database)

        let count = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM clinic") }
        #expect(count == 0, "a store started with CLINICS_SEED=0 is never seeded later")
    }

    @Test(arguments: [("0", false), ("false", false), ("OFF", false), ("1", true), ("", true)])
    func settings_readCLINICS_SEED(value: String, seeds: Bool) {
        #expect(World.Settings.from(environment: ["CLINICS_SEED": value]).seedDirectory == seeds)
        #expect(World.Settings.from(environment: [:]).seedDirectory)
    }

    @Test func nearestPharmacy_toPiccadillyCircus_isInLondon_andOpenOnSunday() async throws {
        let world = try World.fixture(seedDirectory: true)
        let piccadillyCircus = Coordinate(latitude: 51.5101, longitude: -0.1340)

        let found = try await FindNearestClinics(world: world).execute(
            point: piccadillyCircus, limit: 3, service: .pharmacy)

        #expect(found.count == 3)
        #expect(found.allSatisfy { $0.clinic.address.contains("London") && $0.distanceMetres < 10_000 })
        #expect(found[0].clinic.name == "Piccadilly Late Night Pharmacy")
        let sunday = try await CheckSlot(world: world).execute(
            clinicID: found[0].clinic.id, service: .pharmacy, startsAt: .at("2026-11-22T20:00:00Z"),
            endsAt: .at("2026-11-22T20:15:00Z"))
        #expect(sunday.isOpen)
    }
}
