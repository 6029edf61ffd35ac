import IOInterface
import SessionsTesting
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import RecordsService

// Shared fixtures of the records tests: every parameter has a default.

/// Session tokens of two patients, and one identity does not know.
enum Tokens {
    static let ada = "token-ada"
    static let bob = "token-bob"
    static let unknown = "token-unknown"
}

extension Clinics.Clinic {
    static func fixture(
        id: String = "c_0001", name: String = "Hill Street Surgery", address: String = "12 Hill Street, London W1J 5NB",
        latitude: Double = 51.5081, longitude: Double = -0.1464, services: [Clinics.Service] = [.gp],
        createdAt: Timestamp = .epoch
    ) -> Self {
        .init(
            id: id, name: name, address: address, latitude: latitude, longitude: longitude, timeZone: "Europe/London",
            phone: nil, services: services, hours: [], createdAt: createdAt)
    }
}

extension Records.AddEntryInput {
    static func fixture(
        token: String = Tokens.ada, kind: Records.EntryKind = .allergy, text: String = "Penicillin: hives.",
        clinicID: String? = nil
    ) -> Self {
        .init(token: token, kind: kind, text: text, clinicID: clinicID)
    }
}

/// The clinics the stubbed clinics vertical knows.
enum Directory {
    static let hillStreet = Clinics.Clinic.fixture()
    static let deansgate = Clinics.Clinic.fixture(
        id: "c_0015", name: "Deansgate Pharmacy", address: "301 Deansgate, Manchester M3 4LQ", latitude: 53.4769,
        longitude: -2.2513, services: [.pharmacy])
    static let all = [hillStreet, deansgate]
}

extension StubCaller {
    /// Adds identity: `authenticate` knows Ada and Bob, else answers `unauthenticated`.
    func identity() -> StubCaller {
        identity(sessions: [
            Tokens.ada: .fixture(), Tokens.bob: .fixture(userID: "u_bob", displayName: "Bob Babbage"),
        ])
    }

    /// Adds clinics knowing `clinics`: `get`, `getMany` and `nearest` (which answers them all, distance 0).
    func clinics(_ clinics: [Clinics.Clinic] = Directory.all) -> StubCaller {
        on(Clinics.get) { (input: Clinics.GetInput) throws(ServiceError) in
            guard let clinic = clinics.first(where: { $0.id == input.id }) else {
                throw ServiceError(.notFound, "no clinic has id \(input.id)")
            }
            return clinic
        }
        .on(Clinics.getMany) { (input: Clinics.GetManyInput) in
            Clinics.ClinicList(clinics: input.ids.compactMap { id in clinics.first { $0.id == id } })
        }
        .on(Clinics.nearest) { (input: Clinics.NearestInput) in
            let offering = clinics.filter { input.service.map($0.services.contains) ?? true }
            return Clinics.NearbyClinics(
                clinics: offering.prefix(input.limit).map { .init(clinic: $0, distanceMetres: 0) })
        }
    }

    /// Adds clinics that is down: every call fails with `code`.
    func clinicsDown(_ code: ErrorCode = .unavailable) -> StubCaller {
        on(Clinics.get) { (_: Clinics.GetInput) throws(ServiceError) -> Clinics.Clinic in
            throw ServiceError(code, "clinics is not running")
        }
        .on(Clinics.getMany) { (_: Clinics.GetManyInput) throws(ServiceError) -> Clinics.ClinicList in
            throw ServiceError(code, "clinics is not running")
        }
        .on(Clinics.nearest) { (_: Clinics.NearestInput) throws(ServiceError) -> Clinics.NearbyClinics in
            throw ServiceError(code, "clinics is not running")
        }
    }
}

extension World {
    /// A test world whose caller has identity and clinics unless told otherwise.
    static func fixture(caller: any ServiceCalling = StubCaller().identity().clinics()) throws -> World {
        try .test(caller: caller)
    }

    /// A world for unit tests: an in-memory store, `caller` answering only what the test
    /// stubs, the clock stopped at `now`, ids `r_t1`, `r_t2`, ….
    static func test(
        caller: any ServiceCalling = StubCaller(), now: Timestamp = TestClock.start, settings: Settings = Settings()
    ) throws -> World {
        World(
            parts: try .test(
                migrator: Migrations.all, clock: TestClock(at: now), newID: SequentialIDs(prefix: "r_t").next,
                caller: caller, calls: World.calls, label: "records.test"),
            settings: settings)
    }
}
