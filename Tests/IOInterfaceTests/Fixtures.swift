import IOInterface
import Testing
import VerticalsContract
import VerticalsWire

// Example values of every Input and Output in IOInterface, in one place for every test, each
// written once: `full` populates every field, optional ones included; `minimal` leaves optional
// fields out, lists empty and defaults as they are. A variant names only what differs:
// `Clinics.Clinic.full.with { $0.phone = nil }`.

// MARK: Identity

extension Identity.RegisterInput {
    static let full = Self(email: "ada@example.org", password: Fixtures.password, displayName: "Ada Lovelace")
    static let minimal = Self(email: "a@b.c", password: "", displayName: "")
}

extension Identity.FirstAdminInput {
    static let full = Self(email: "ada@example.org", password: Fixtures.password, displayName: "Ada Lovelace")
    static let minimal = Self(email: "a@b.c", password: "", displayName: nil)
}

extension Identity.LoginInput {
    static let full = Self(email: "ada@example.org", password: Fixtures.password)
    static let minimal = Self(email: "", password: "")
}

extension Identity.TokenInput {
    static let full = Self(token: Fixtures.token)
    static let minimal = Self(token: "")
}

extension Identity.RoleChangeInput {
    static let full = Self(token: Fixtures.token, email: "grace@example.org", role: .clinician)
    static let minimal = Self(token: "", email: "", role: .patient)
}

extension Identity.PasswordChangeInput {
    static let full = Self(token: Fixtures.token, oldPassword: Fixtures.password, newPassword: "a brand new passphrase")
    static let minimal = Self(token: "", oldPassword: "", newPassword: "")
}

extension Identity.SessionsEnded {
    static let full = Self(count: 3)
    static let minimal = Self(count: 0)
}

extension Identity.Account {
    static let full = Self(
        userID: "u_7f3a", email: "ada@example.org", displayName: "Ada Lovelace",
        roles: [.patient, .admin, .unknown("auditor")],
        createdAt: Timestamp(microsecondsSinceEpoch: 1_795_426_200_123_456))
    static let minimal = Self(userID: "u", email: "a@b.c", displayName: "", roles: [], createdAt: .epoch)
}

extension Identity.Session {
    static let full = Self(
        token: Fixtures.token, expiresAt: Timestamp(secondsSinceEpoch: 1_795_426_200), userID: "u_7f3a")
    static let minimal = Self(token: "", expiresAt: Timestamp(microsecondsSinceEpoch: -1), userID: "")
}

extension Identity.Principal {
    static let full = Self(
        userID: "u_7f3a", displayName: "Ada Lovelace", roles: [.clinician],
        expiresAt: Timestamp(secondsSinceEpoch: 1_795_426_200))
    static let minimal = Self(userID: "u", displayName: "", roles: [], expiresAt: .epoch)
}

extension Identity.UserInput {
    static let full = Self(userID: "u_7f3a")
    static let minimal = Self(userID: "")
}

extension Identity.UserProfile {
    static let full = Self(userID: "u_7f3a", displayName: "Ada Lovelace")
    static let minimal = Self(userID: "", displayName: "")
}

// MARK: Clinics

extension Clinics.OpeningHours {
    static let full = Self(weekday: .monday, opens: 540, closes: 1020)
    static let minimal = Self(weekday: .sunday, opens: 0, closes: 1440)

    /// A week: mornings and afternoons on weekdays, Saturday morning, a day this build does not know.
    static let week: [Self] =
        [Clinics.Weekday.monday, .tuesday, .wednesday, .thursday, .friday].flatMap {
            [Self(weekday: $0, opens: 480, closes: 750), Self(weekday: $0, opens: 810, closes: 1110)]
        } + [
            Self(weekday: .saturday, opens: 540, closes: 780),
            Self(weekday: .unknown("holiday"), opens: 600, closes: 660),
        ]
}

extension Clinics.CreateInput {
    static let full = Self(
        token: Fixtures.token, name: "Hill Street Surgery", address: "12 Hill Street, London W1J 5NB",
        latitude: 51.508_1,
        longitude: -0.146_4, timeZone: "Europe/London", phone: "+44 20 7946 0000",
        services: [.gp, .pharmacy, .vaccination, .bloodTest, .unknown("acupuncture")], hours: Clinics.OpeningHours.week)
    static let minimal = Self(
        token: "", name: "", address: "", latitude: 0, longitude: 0, timeZone: "UTC", phone: nil, services: [],
        hours: [])
}

extension Clinics.GetInput {
    static let full = Self(id: "c_0001")
    static let minimal = Self(id: "")
}

extension Clinics.SearchInput {
    static let full = Self(name: "hill", limit: 7, cursor: "AQIBDmhpbGwgc3RyZWV0AWNfMDAwMdKd9w")
    static let minimal = Self(name: "")
}

extension Clinics.NearestInput {
    static let full = Self(latitude: -33.868_8, longitude: 151.209_3, limit: 3, service: .dentist)
    static let minimal = Self(latitude: 90, longitude: -180)
}

extension Clinics.Clinic {
    static let full = Self(
        id: "c_0001", name: "Hill Street Surgery", address: "12 Hill Street, London W1J 5NB", latitude: 51.508_1,
        longitude: -0.146_4, timeZone: "Europe/London", phone: "+44 20 7946 0000",
        services: [.gp, .physiotherapy, .optician, .dentist, .unknown("acupuncture")], hours: Clinics.OpeningHours.week,
        createdAt: Timestamp(microsecondsSinceEpoch: 1_795_426_200_000_001))
    static let minimal = Self(
        id: "c", name: "", address: "", latitude: -90, longitude: 180, timeZone: "UTC", phone: nil, services: [],
        hours: [], createdAt: .epoch)
}

extension Clinics.ClinicList {
    static let full = Self(
        clinics: [
            .full,
            Clinics.Clinic.full.with {
                $0.id = "c_0002"; $0.phone = nil
            }, .minimal,
        ],
        nextCursor: "AQIBDmhpbGwgc3RyZWV0AWNfMDAwMdKd9w")
    static let minimal = Self(clinics: [])
}

extension Clinics.NearbyClinic {
    static let full = Self(clinic: .full, distanceMetres: 1_234.5)
    static let minimal = Self(clinic: .minimal, distanceMetres: 0)
}

extension Clinics.NearbyClinics {
    static let full = Self(clinics: [.full, Clinics.NearbyClinic(clinic: .minimal, distanceMetres: 16_993_301.25)])
    static let minimal = Self(clinics: [])
}

extension Clinics.GetManyInput {
    static let full = Self(ids: ["c_0001", "c_0002", "c_missing"])
    static let minimal = Self(ids: [])
}

extension Clinics.CheckSlotInput {
    static let full = Self(
        clinicID: "c_0001", service: .unknown("acupuncture"), startsAt: Timestamp(secondsSinceEpoch: 1_795_426_200),
        endsAt: Timestamp(microsecondsSinceEpoch: 1_795_428_000_000_001))
    static let minimal = Self(
        clinicID: "", service: .gp, startsAt: Timestamp(microsecondsSinceEpoch: -1), endsAt: .epoch)
}

extension Clinics.SlotCheck {
    static let full = Self(
        clinicID: "c_0001", clinicName: "Hill Street Surgery", offersService: true, isOpen: false,
        reason: "The slot 17:30–18:15 (Europe/London) is outside Monday's opening hours: 08:00–18:00.")
    static let minimal = Self(clinicID: "", clinicName: "", offersService: false, isOpen: false, reason: "")
}

// MARK: All of them

extension WireMessage {
    /// A copy with `change` applied: a variant of an example that names only what differs.
    func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

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
    /// The session token every example that carries one carries.
    static let token = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E"
    /// The password every example that carries one carries.
    static let password = "correct horse battery staple"

    /// A full and a minimal example of every Input and Output of every contract.
    static let all: [Example] = [
        pair(Identity.RegisterInput.full, .minimal),
        pair(Identity.FirstAdminInput.full, .minimal),
        pair(Identity.LoginInput.full, .minimal),
        pair(Identity.TokenInput.full, .minimal),
        pair(Identity.RoleChangeInput.full, .minimal),
        pair(Identity.PasswordChangeInput.full, .minimal),
        pair(Identity.SessionsEnded.full, .minimal),
        pair(Identity.Account.full, .minimal),
        pair(Identity.Session.full, .minimal),
        pair(Identity.Principal.full, .minimal),
        pair(Identity.UserInput.full, .minimal),
        pair(Identity.UserProfile.full, .minimal),
        pair(Empty(), Empty()),
        pair(Clinics.CreateInput.full, .minimal),
        pair(Clinics.GetInput.full, .minimal),
        pair(Clinics.SearchInput.full, .minimal),
        pair(Clinics.NearestInput.full, .minimal),
        pair(Clinics.Clinic.full, .minimal),
        pair(Clinics.ClinicList.full, .minimal),
        pair(Clinics.NearbyClinic.full, .minimal),
        pair(Clinics.NearbyClinics.full, .minimal),
        pair(Clinics.OpeningHours.full, .minimal),
        pair(Clinics.GetManyInput.full, .minimal),
        pair(Clinics.CheckSlotInput.full, .minimal),
        pair(Clinics.SlotCheck.full, .minimal),
        pair(Appointments.BookInput.full, .minimal),
        pair(Appointments.AppointmentRef.full, .minimal),
        pair(Appointments.ListInput.full, .minimal),
        pair(Appointments.Appointment.full, .minimal),
        pair(Appointments.AppointmentList.full, .minimal),
        pair(Notifications.SendInput.full, .minimal),
        pair(Notifications.InboxInput.full, .minimal),
        pair(Notifications.MarkReadInput.full, .minimal),
        pair(Notifications.Notification.full, .minimal),
        pair(Notifications.Inbox.full, .minimal),
        pair(Records.AddEntryInput.full, .minimal),
        pair(Records.HistoryInput.full, .minimal),
        pair(Records.NearbyPharmaciesInput.full, .minimal),
        pair(Records.DeleteEntryInput.full, .minimal),
        pair(Records.Entry.full, .minimal),
        pair(Records.History.full, .minimal),
        pair(Supervisor.ServiceName.full, .minimal),
        pair(Supervisor.ServiceStatus.full, .minimal),
        pair(Supervisor.ReplicaStatus.full, .minimal),
        pair(Supervisor.StatusList.full, .minimal),
        pair(Supervisor.ReloadResult.full, .minimal),
        pair(Supervisor.LogsInput.full, .minimal),
        pair(Supervisor.LogLine.full, .minimal),
        pair(Supervisor.RestoreInput.full, .minimal),
        pair(Supervisor.RestoreResult.full, .minimal),
        pair(Supervisor.UpgradeInput.full, .minimal),
        pair(Supervisor.UpgradeResult.full, .minimal),
    ].flatMap { $0 }

    static func pair<M: WireMessage>(_ full: M, _ minimal: M) -> [Example] {
        [Example(kind: .full, value: full), Example(kind: .minimal, value: minimal)]
    }
}
