import IOInterface
import SessionsTesting
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import ClinicsService

// Shared fixtures of the clinics tests: every parameter has a default.

/// The token of an admin, a patient, and one identity does not know.
enum Tokens {
    static let admin = "token-admin"
    static let patient = "token-patient"
    static let unknown = "token-unknown"
}

extension StubCaller {
    /// Identity answering `authenticate` for ``Tokens``: an admin, a patient, else `unauthenticated`.
    static func identity() -> StubCaller {
        StubCaller().identity(sessions: [
            Tokens.admin: .fixture(userID: "u_admin", displayName: "Grace Admin", roles: [.admin]),
            Tokens.patient: .fixture(userID: "u_patient", displayName: "Pat Patient", roles: [.patient]),
        ])
    }
}

/// Opening hours of every weekday from `opens` to `closes` (minutes after midnight).
func everyWeekday(_ opens: Int, _ closes: Int) -> [Clinics.OpeningHours] {
    [Clinics.Weekday.monday, .tuesday, .wednesday, .thursday, .friday].map {
        Clinics.OpeningHours(weekday: $0, opens: opens, closes: closes)
    }
}

extension ClinicDraft {
    static func fixture(
        name: String = "Hill Street Surgery", address: String = "12 Hill Street, London W1J 5NB",
        latitude: Double = 51.5081, longitude: Double = -0.1464, timeZone: String = "Europe/London",
        phone: String? = "+44 20 7946 0102", services: [Clinics.Service] = [.gp, .vaccination],
        hours: [Clinics.OpeningHours] = everyWeekday(540, 1020)
    ) -> Self {
        .init(
            name: name, address: address, location: Coordinate(latitude: latitude, longitude: longitude),
            timeZone: timeZone, phone: phone, services: services, hours: hours)
    }
}

/// Well-known places, for distance tests.
enum Places {
    static let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
    static let manchester = Coordinate(latitude: 53.4808, longitude: -2.2426)
    static let edinburgh = Coordinate(latitude: 55.9533, longitude: -3.1883)
    static let cardiff = Coordinate(latitude: 51.4816, longitude: -3.1791)
}

extension Timestamp {
    /// The instant an RFC 3339 literal names; traps on a typo so tests read as dates.
    static func at(_ text: String) -> Timestamp {
        guard let timestamp = RFC3339.parse(text) else { fatalError("not RFC 3339: \(text)") }
        return timestamp
    }
}

extension World {
    /// A test world with identity stubbed (``StubCaller/identity()``) unless told otherwise.
    static func fixture(caller: any ServiceCalling = StubCaller.identity(), seedDirectory: Bool = false) throws -> World
    {
        try .test(caller: caller, seedDirectory: seedDirectory)
    }

    /// A world for unit tests: an in-memory store (empty unless `seedDirectory`), `caller`
    /// answering only what the test stubs, the clock stopped at `now`, ids `c_t1`, `c_t2`, ….
    static func test(
        caller: any ServiceCalling = StubCaller(), now: Timestamp = TestClock.start, seedDirectory: Bool = false
    ) throws -> World {
        var settings = Settings()
        settings.seedDirectory = seedDirectory
        return World(
            parts: try .test(
                migrator: Migrations.all(seedDirectory: seedDirectory, seededAt: now), clock: TestClock(at: now),
                newID: SequentialIDs(prefix: "c_t").next, caller: caller, calls: World.calls, label: "clinics.test"),
            settings: settings)
    }

    /// Stores `draft` directly (no identity call), as if an admin had created it; returns it.
    @discardableResult
    func given(_ draft: ClinicDraft = .fixture(), id: String? = nil) async throws -> Clinics.Clinic {
        let clinic = try draft.validated().clinic(id: id ?? newID(), createdAt: now())
        try await clinics.insert(clinic)
        return clinic
    }
}
