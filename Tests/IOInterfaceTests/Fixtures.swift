import IOInterface
import Testing
import VerticalsContract
import VerticalsWire

// Example values of every Input and Output in IOInterface, in one place for every test.
// `fixture(...)` populates every field, optional ones included, with a default for each
// parameter; `minimal` leaves optional fields out, lists empty and defaults as they are.

// MARK: Identity

extension Identity.RegisterInput {
    static func fixture(
        email: String = "ada@example.org", password: String = "correct horse battery staple",
        displayName: String = "Ada Lovelace"
    ) -> Self {
        .init(email: email, password: password, displayName: displayName)
    }

    static let minimal = Self(email: "a@b.c", password: "", displayName: "")
}

extension Identity.FirstAdminInput {
    static func fixture(
        email: String = "ada@example.org", password: String = "correct horse battery staple",
        displayName: String? = "Ada Lovelace"
    ) -> Self {
        .init(email: email, password: password, displayName: displayName)
    }

    static let minimal = Self(email: "a@b.c", password: "", displayName: nil)
}

extension Identity.LoginInput {
    static func fixture(email: String = "ada@example.org", password: String = "correct horse battery staple") -> Self {
        .init(email: email, password: password)
    }

    static let minimal = Self(email: "", password: "")
}

extension Identity.TokenInput {
    static func fixture(token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E") -> Self {
        .init(token: token)
    }

    static let minimal = Self(token: "")
}

extension Identity.RoleChangeInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", email: String = "grace@example.org",
        role: Identity.Role = .clinician
    ) -> Self {
        .init(token: token, email: email, role: role)
    }

    static let minimal = Self(token: "", email: "", role: .patient)
}

extension Identity.PasswordChangeInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", oldPassword: String = "correct horse battery staple",
        newPassword: String = "a brand new passphrase"
    ) -> Self {
        .init(token: token, oldPassword: oldPassword, newPassword: newPassword)
    }

    static let minimal = Self(token: "", oldPassword: "", newPassword: "")
}

extension Identity.SessionsEnded {
    static func fixture(count: Int = 3) -> Self { .init(count: count) }

    static let minimal = Self(count: 0)
}

extension Identity.Account {
    static func fixture(
        userID: String = "u_7f3a", email: String = "ada@example.org", displayName: String = "Ada Lovelace",
        roles: [Identity.Role] = [.patient, .admin, .unknown("auditor")],
        createdAt: Timestamp = Timestamp(microsecondsSinceEpoch: 1_795_426_200_123_456)
    ) -> Self {
        .init(userID: userID, email: email, displayName: displayName, roles: roles, createdAt: createdAt)
    }

    static let minimal = Self(userID: "u", email: "a@b.c", displayName: "", roles: [], createdAt: .epoch)
}

extension Identity.Session {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E",
        expiresAt: Timestamp = Timestamp(secondsSinceEpoch: 1_795_426_200), userID: String = "u_7f3a"
    ) -> Self {
        .init(token: token, expiresAt: expiresAt, userID: userID)
    }

    static let minimal = Self(token: "", expiresAt: Timestamp(microsecondsSinceEpoch: -1), userID: "")
}

extension Identity.Principal {
    static func fixture(
        userID: String = "u_7f3a", displayName: String = "Ada Lovelace", roles: [Identity.Role] = [.clinician],
        expiresAt: Timestamp = Timestamp(secondsSinceEpoch: 1_795_426_200)
    ) -> Self {
        .init(userID: userID, displayName: displayName, roles: roles, expiresAt: expiresAt)
    }

    static let minimal = Self(userID: "u", displayName: "", roles: [], expiresAt: .epoch)
}

extension Identity.UserInput {
    static func fixture(userID: String = "u_7f3a") -> Self {
        .init(userID: userID)
    }

    static let minimal = Self(userID: "")
}

extension Identity.UserProfile {
    static func fixture(userID: String = "u_7f3a", displayName: String = "Ada Lovelace") -> Self {
        .init(userID: userID, displayName: displayName)
    }

    static let minimal = Self(userID: "", displayName: "")
}

// MARK: Clinics

extension Clinics.OpeningHours {
    static func fixture(weekday: Clinics.Weekday = .monday, opens: Int = 540, closes: Int = 1020) -> Self {
        .init(weekday: weekday, opens: opens, closes: closes)
    }

    static let minimal = Self(weekday: .sunday, opens: 0, closes: 1440)

    /// A week: mornings and afternoons on weekdays, Saturday morning, a day this build does not know.
    static let week: [Self] =
        [Clinics.Weekday.monday, .tuesday, .wednesday, .thursday, .friday].flatMap {
            [Self(weekday: $0, opens: 480, closes: 750), Self(weekday: $0, opens: 810, closes: 1110)]
        } + [
            Self(weekday: .saturday, opens: 540, closes: 780), Self(weekday: .unknown("holiday"), opens: 600, closes: 660),
        ]
}

extension Clinics.CreateInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", name: String = "Hill Street Surgery",
        address: String = "12 Hill Street, London W1J 5NB", latitude: Double = 51.508_1,
        longitude: Double = -0.146_4, timeZone: String = "Europe/London", phone: String? = "+44 20 7946 0000",
        services: [Clinics.Service] = [.gp, .pharmacy, .vaccination, .bloodTest, .unknown("acupuncture")],
        hours: [Clinics.OpeningHours] = Clinics.OpeningHours.week
    ) -> Self {
        .init(
            token: token, name: name, address: address, latitude: latitude, longitude: longitude, timeZone: timeZone,
            phone: phone, services: services, hours: hours)
    }

    static let minimal = Self(
        token: "", name: "", address: "", latitude: 0, longitude: 0, timeZone: "UTC", phone: nil, services: [],
        hours: [])
}

extension Clinics.GetInput {
    static func fixture(id: String = "c_0001") -> Self {
        .init(id: id)
    }

    static let minimal = Self(id: "")
}

extension Clinics.SearchInput {
    static func fixture(name: String = "hill", limit: Int = 7, cursor: String? = "AQIBDmhpbGwgc3RyZWV0AWNfMDAwMdKd9w") -> Self {
        .init(name: name, limit: limit, cursor: cursor)
    }

    static let minimal = Self(name: "")
}

extension Clinics.NearestInput {
    static func fixture(
        latitude: Double = -33.868_8, longitude: Double = 151.209_3, limit: Int = 3,
        service: Clinics.Service? = .dentist
    ) -> Self {
        .init(latitude: latitude, longitude: longitude, limit: limit, service: service)
    }

    static let minimal = Self(latitude: 90, longitude: -180)
}

extension Clinics.Clinic {
    static func fixture(
        id: String = "c_0001", name: String = "Hill Street Surgery", address: String = "12 Hill Street, London W1J 5NB",
        latitude: Double = 51.508_1, longitude: Double = -0.146_4, timeZone: String = "Europe/London",
        phone: String? = "+44 20 7946 0000",
        services: [Clinics.Service] = [.gp, .physiotherapy, .optician, .dentist, .unknown("acupuncture")],
        hours: [Clinics.OpeningHours] = Clinics.OpeningHours.week,
        createdAt: Timestamp = Timestamp(microsecondsSinceEpoch: 1_795_426_200_000_001)
    ) -> Self {
        .init(
            id: id, name: name, address: address, latitude: latitude, longitude: longitude, timeZone: timeZone,
            phone: phone, services: services, hours: hours, createdAt: createdAt)
    }

    static let minimal = Self(
        id: "c", name: "", address: "", latitude: -90, longitude: 180, timeZone: "UTC", phone: nil, services: [],
        hours: [], createdAt: .epoch)
}

extension Clinics.ClinicList {
    static func fixture(
        clinics: [Clinics.Clinic] = [.fixture(), .fixture(id: "c_0002", phone: nil), .minimal],
        nextCursor: String? = "AQIBDmhpbGwgc3RyZWV0AWNfMDAwMdKd9w"
    ) -> Self {
        .init(clinics: clinics, nextCursor: nextCursor)
    }

    static let minimal = Self(clinics: [])
}

extension Clinics.NearbyClinic {
    static func fixture(clinic: Clinics.Clinic = .fixture(), distanceMetres: Double = 1_234.5) -> Self {
        .init(clinic: clinic, distanceMetres: distanceMetres)
    }

    static let minimal = Self(clinic: .minimal, distanceMetres: 0)
}

extension Clinics.NearbyClinics {
    static func fixture(
        clinics: [Clinics.NearbyClinic] = [.fixture(), .fixture(clinic: .minimal, distanceMetres: 16_993_301.25)]
    ) -> Self {
        .init(clinics: clinics)
    }

    static let minimal = Self(clinics: [])
}

extension Clinics.GetManyInput {
    static func fixture(ids: [String] = ["c_0001", "c_0002", "c_missing"]) -> Self {
        .init(ids: ids)
    }

    static let minimal = Self(ids: [])
}

extension Clinics.CheckSlotInput {
    static func fixture(
        clinicID: String = "c_0001", service: Clinics.Service = .unknown("acupuncture"),
        startsAt: Timestamp = Timestamp(secondsSinceEpoch: 1_795_426_200),
        endsAt: Timestamp = Timestamp(microsecondsSinceEpoch: 1_795_428_000_000_001)
    ) -> Self {
        .init(clinicID: clinicID, service: service, startsAt: startsAt, endsAt: endsAt)
    }

    static let minimal = Self(
        clinicID: "", service: .gp, startsAt: Timestamp(microsecondsSinceEpoch: -1), endsAt: .epoch)
}

extension Clinics.SlotCheck {
    static func fixture(
        clinicID: String = "c_0001", clinicName: String = "Hill Street Surgery", offersService: Bool = true,
        isOpen: Bool = false,
        reason: String = "The slot 17:30–18:15 (Europe/London) is outside Monday's opening hours: 08:00–18:00."
    ) -> Self {
        .init(clinicID: clinicID, clinicName: clinicName, offersService: offersService, isOpen: isOpen, reason: reason)
    }

    static let minimal = Self(clinicID: "", clinicName: "", offersService: false, isOpen: false, reason: "")
}

// MARK: All of them

/// One example value of a message, named for test output.
struct Example: Sendable, CustomTestStringConvertible {
    /// `full` (every field populated) or `minimal`.
    enum Kind: String, Sendable { case full, minimal }

    let kind: Kind
    let value: any WireMessage

    var schemaName: String { type(of: value).schema.name }
    var testDescription: String { "\(schemaName) (\(kind.rawValue))" }
}

enum Fixtures {
    /// A full and a minimal example of every Input and Output of every contract.
    static let all: [Example] = [
        pair(Identity.RegisterInput.fixture(), .minimal),
        pair(Identity.FirstAdminInput.fixture(), .minimal),
        pair(Identity.LoginInput.fixture(), .minimal),
        pair(Identity.TokenInput.fixture(), .minimal),
        pair(Identity.RoleChangeInput.fixture(), .minimal),
        pair(Identity.PasswordChangeInput.fixture(), .minimal),
        pair(Identity.SessionsEnded.fixture(), .minimal),
        pair(Identity.Account.fixture(), .minimal),
        pair(Identity.Session.fixture(), .minimal),
        pair(Identity.Principal.fixture(), .minimal),
        pair(Identity.UserInput.fixture(), .minimal),
        pair(Identity.UserProfile.fixture(), .minimal),
        pair(Empty(), Empty()),
        pair(Clinics.CreateInput.fixture(), .minimal),
        pair(Clinics.GetInput.fixture(), .minimal),
        pair(Clinics.SearchInput.fixture(), .minimal),
        pair(Clinics.NearestInput.fixture(), .minimal),
        pair(Clinics.Clinic.fixture(), .minimal),
        pair(Clinics.ClinicList.fixture(), .minimal),
        pair(Clinics.NearbyClinic.fixture(), .minimal),
        pair(Clinics.NearbyClinics.fixture(), .minimal),
        pair(Clinics.OpeningHours.fixture(), .minimal),
        pair(Clinics.GetManyInput.fixture(), .minimal),
        pair(Clinics.CheckSlotInput.fixture(), .minimal),
        pair(Clinics.SlotCheck.fixture(), .minimal),
    ].flatMap { $0 } + appointments + notifications + records + supervisor

    static func pair<M: WireMessage>(_ full: M, _ minimal: M) -> [Example] {
        [Example(kind: .full, value: full), Example(kind: .minimal, value: minimal)]
    }
}
