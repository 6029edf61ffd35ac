import IOInterface
import SessionsTesting
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
@testable import ClinicsService

@Suite("Creating a clinic")
struct CreateClinicTests {
    @Test func create_byAnAdmin_storesTheClinicInCanonicalForm() async throws {
        let world = try World.fixture()
        let draft = ClinicDraft.fixture(
            name: "  Hill Street Surgery ", services: [.vaccination, .gp, .gp],
            hours: [
                .init(weekday: .tuesday, opens: 540, closes: 1020), .init(weekday: .monday, opens: 540, closes: 1020),
            ])

        let created = try await CreateClinic(world: world).execute(token: Tokens.admin, draft: draft)

        #expect(created.id == "c_t1")
        #expect(created.name == "Hill Street Surgery")
        #expect(created.services == [.gp, .vaccination])
        #expect(created.hours.map(\.weekday) == [.monday, .tuesday])
        #expect(created.createdAt == world.now())
        #expect(try await GetClinics(world: world).execute(id: created.id) == created)
    }

    @Test func create_byANonAdmin_failsWithPermissionDenied_andStoresNothing() async throws {
        let world = try World.fixture()

        let error = await wireError {
            _ = try await CreateClinic(world: world).execute(token: Tokens.patient, draft: .fixture())
        }

        #expect(error?.code == .permissionDenied)
        #expect(error?.message.contains("admin") == true)
        #expect(try await world.clinics.count() == 0)
    }

    @Test func create_withAnInvalidToken_passesIdentitysUnauthenticatedThrough() async throws {
        let world = try World.fixture()

        let error = await wireError {
            _ = try await CreateClinic(world: world).execute(token: Tokens.unknown, draft: .fixture())
        }

        #expect(error?.code == .unauthenticated)
        #expect(try await world.clinics.count() == 0)
    }

    @Test func create_whenIdentityIsDown_failsUnavailable_andStoresNothing() async throws {
        let world = try World.fixture(caller: StubCaller().identityDown())

        let error = await wireError {
            _ = try await CreateClinic(world: world).execute(token: Tokens.admin, draft: .fixture())
        }

        #expect(error?.code == .unavailable)
        #expect(error?.retryable == true)
        #expect(try await world.clinics.count() == 0)
    }

    @Test func create_checksTheTokenBeforeAnythingElse() async throws {
        let world = try World.fixture()

        let error = await wireError {
            _ = try await CreateClinic(world: world).execute(token: Tokens.patient, draft: .fixture(latitude: 500))
        }

        #expect(error?.code == .permissionDenied)
    }

    /// One broken rule per case, with the field the error must name.
    static let invalidDrafts: [(ClinicDraft, String)] = [
        (.fixture(name: "   "), "name"),
        (.fixture(name: String(repeating: "x", count: 201)), "name"),
        (.fixture(address: ""), "address"),
        (.fixture(latitude: 90.000_1), "latitude"),
        (.fixture(latitude: -91), "latitude"),
        (.fixture(latitude: .nan), "latitude"),
        (.fixture(longitude: 180.5), "longitude"),
        (.fixture(longitude: -.infinity), "longitude"),
        (.fixture(timeZone: "Europe/Londn"), "timeZone"),
        (.fixture(timeZone: "Mars/Olympus_Mons"), "timeZone"),
        (.fixture(timeZone: ""), "timeZone"),
        (.fixture(phone: String(repeating: "0", count: 41)), "phone"),
        (.fixture(services: []), "services"),
        (.fixture(services: [.gp, .unknown("acupuncture")]), "services"),
        (.fixture(hours: [.init(weekday: .monday, opens: 600, closes: 600)]), "hours"),
        (.fixture(hours: [.init(weekday: .monday, opens: 1000, closes: 900)]), "hours"),
        (.fixture(hours: [.init(weekday: .monday, opens: -1, closes: 900)]), "hours"),
        (.fixture(hours: [.init(weekday: .monday, opens: 0, closes: 1441)]), "hours"),
        (.fixture(hours: [.init(weekday: .unknown("funday"), opens: 540, closes: 600)]), "hours"),
        (
            .fixture(hours: [
                .init(weekday: .monday, opens: 540, closes: 780), .init(weekday: .monday, opens: 720, closes: 1020),
            ]), "hours"
        ),
    ]

    @Test(arguments: invalidDrafts)
    func create_withAnInvalidField_failsWithInvalidInputNamingTheField(draft: ClinicDraft, field: String) async throws {
        let world = try World.fixture()

        let error = await wireError {
            _ = try await CreateClinic(world: world).execute(token: Tokens.admin, draft: draft)
        }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == field, "\(error?.description ?? "no error")")
        #expect(try await world.clinics.count() == 0)
    }

    /// Edges that are allowed: the poles, the antimeridian, a 24-hour day, touching periods, no phone.
    static let validDrafts: [ClinicDraft] = [
        .fixture(latitude: 90, longitude: 180),
        .fixture(latitude: -90, longitude: -180),
        .fixture(phone: nil, hours: [.init(weekday: .sunday, opens: 0, closes: 1440)]),
        .fixture(hours: [
            .init(weekday: .monday, opens: 540, closes: 780), .init(weekday: .monday, opens: 780, closes: 1020),
        ]),
        .fixture(timeZone: "America/New_York", hours: []),
        .fixture(timeZone: "UTC"),
    ]

    @Test(arguments: validDrafts)
    func create_atTheEdgesOfEachRule_succeeds(draft: ClinicDraft) async throws {
        let world = try World.fixture()

        let created = try await CreateClinic(world: world).execute(token: Tokens.admin, draft: draft)

        #expect(try await world.clinics.clinic(id: created.id) == created)
    }
}
