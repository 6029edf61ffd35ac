import Foundation
import IOInterface
import VerticalsContract
import VerticalsWire

/// The facts of a clinic before it has an id: what ``CreateClinic`` validates and stores,
/// and what the seed directory is written in.
package struct ClinicDraft: Sendable, Equatable {
    /// The clinic's name as patients see it.
    package var name: String
    /// The postal address, one line.
    package var address: String
    /// Where it is.
    package var location: Coordinate
    /// The IANA time zone its hours are in.
    package var timeZone: String
    /// A phone number for patients, when it has one.
    package var phone: String?
    /// What it offers.
    package var services: [Clinics.Service]
    /// When it opens.
    package var hours: [Clinics.OpeningHours]

    /// Creates a draft; call ``validated()`` before storing it.
    package init(
        name: String, address: String, location: Coordinate, timeZone: String, phone: String? = nil,
        services: [Clinics.Service], hours: [Clinics.OpeningHours]
    ) {
        self.name = name
        self.address = address
        self.location = location
        self.timeZone = timeZone
        self.phone = phone
        self.services = services
        self.hours = hours
    }

    /// The longest name accepted.
    static let maxNameLength = 200
    /// The longest address accepted.
    static let maxAddressLength = 500
    /// The longest phone number accepted.
    static let maxPhoneLength = 40
    /// The most UTF-8 bytes of any text field as sent (the contract's bound, its default):
    /// checked before the text is trimmed or counted.
    package static let maxTextBytes = 4096

    /// The draft in canonical form (trimmed text, services deduplicated in contract order,
    /// hours sorted), or the first rule it breaks, naming the field.
    package func validated() throws(ClinicError) -> ClinicDraft {
        for (field, text) in [("name", name), ("address", address), ("timeZone", timeZone), ("phone", phone ?? "")]
        where text.utf8.count > Self.maxTextBytes {
            throw .invalid(field: field, reason: "must be at most \(Self.maxTextBytes) bytes")
        }
        var draft = self
        draft.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        draft.address = address.trimmingCharacters(in: .whitespacesAndNewlines)
        draft.phone = phone?.trimmingCharacters(in: .whitespacesAndNewlines)
        if draft.phone?.isEmpty == true { draft.phone = nil }

        guard !draft.name.isEmpty, draft.name.count <= Self.maxNameLength else {
            throw .invalid(field: "name", reason: "must be 1...\(Self.maxNameLength) characters")
        }
        guard !draft.address.isEmpty, draft.address.count <= Self.maxAddressLength else {
            throw .invalid(field: "address", reason: "must be 1...\(Self.maxAddressLength) characters")
        }
        if let problem = location.problem { throw .invalid(field: problem.field, reason: problem.reason) }
        guard !timeZone.isEmpty, TimeZone(identifier: timeZone) != nil else {
            throw .invalid(
                field: "timeZone", reason: "\"\(timeZone)\" is not a known IANA time zone; use one like Europe/London")
        }
        if let phone = draft.phone, phone.count > Self.maxPhoneLength {
            throw .invalid(field: "phone", reason: "must be at most \(Self.maxPhoneLength) characters")
        }
        draft.services = try Self.canonical(services)
        draft.hours = try Self.canonical(hours)
        return draft
    }

    private static func canonical(_ services: [Clinics.Service]) throws(ClinicError) -> [Clinics.Service] {
        guard !services.isEmpty else {
            throw .invalid(field: "services", reason: "must list at least one service the clinic offers")
        }
        if let unknown = services.first(where: { !$0.isKnown }) {
            let known = Clinics.Service.knownCases.map(\.wireName).joined(separator: ", ")
            throw .invalid(field: "services", reason: "\"\(unknown)\" is not a service this suite knows (\(known))")
        }
        return Clinics.Service.knownCases.filter(services.contains)
    }

    private static func canonical(_ hours: [Clinics.OpeningHours]) throws(ClinicError) -> [Clinics.OpeningHours] {
        for period in hours {
            guard period.weekday.isKnown else {
                throw .invalid(field: "hours", reason: "\"\(period.weekday)\" is not a day of the week")
            }
            guard period.opens >= 0, period.closes <= 1440, period.opens < period.closes else {
                throw .invalid(
                    field: "hours",
                    reason: "\(period.weekday) \(period.opens)–\(period.closes): opening times are minutes after "
                        + "local midnight with 0 <= opens < closes <= 1440")
            }
        }
        let sorted = hours.sorted { ($0.weekday.isoNumber ?? 0, $0.opens) < ($1.weekday.isoNumber ?? 0, $1.opens) }
        for (earlier, later) in zip(sorted, sorted.dropFirst())
        where earlier.weekday == later.weekday && later.opens < earlier.closes {
            throw .invalid(
                field: "hours",
                reason: "\(earlier.weekday.displayName) has overlapping periods "
                    + "\(clockTime(minutes: earlier.opens))–\(clockTime(minutes: earlier.closes)) and "
                    + "\(clockTime(minutes: later.opens))–\(clockTime(minutes: later.closes))")
        }
        return sorted
    }
}

extension ClinicDraft {
    /// The clinic this draft becomes once stored under `id`.
    package func clinic(id: String, createdAt: Timestamp) -> Clinics.Clinic {
        Clinics.Clinic(
            id: id, name: name, address: address, latitude: location.latitude, longitude: location.longitude,
            timeZone: timeZone, phone: phone, services: services, hours: hours, createdAt: createdAt)
    }
}
