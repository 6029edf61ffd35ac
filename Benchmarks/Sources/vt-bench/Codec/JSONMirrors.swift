import Foundation
import IOInterface
import VerticalsContract

/// Codable twins of the fixtures for Foundation's JSONEncoder/JSONDecoder: the same fields, with
/// enums as their names and timestamps as integers (JSON's cheapest faithful form). Built once,
/// outside the timed loop, so only encoding and decoding are measured.
enum JSONMirrors {
    struct Login: Codable, Equatable {
        var email: String
        var password: String
    }

    struct Booking: Codable, Equatable {
        var token: String
        var clinicID: String
        var service: String
        var startsAt: Int64
        var durationMinutes: Int
        var reason: String
        var requestID: String
    }

    struct Hours: Codable, Equatable {
        var weekday: String
        var opens: Int
        var closes: Int
    }

    struct Clinic: Codable, Equatable {
        var id: String
        var name: String
        var address: String
        var latitude: Double
        var longitude: Double
        var timeZone: String
        var phone: String?
        var services: [String]
        var hours: [Hours]
        var createdAt: Int64
    }

    struct ClinicList: Codable, Equatable {
        var clinics: [Clinic]
    }

    static func login(_ value: Identity.LoginInput) -> Login {
        Login(email: value.email, password: value.password)
    }

    static func booking(_ value: Appointments.BookInput) -> Booking {
        Booking(
            token: value.token, clinicID: value.clinicID, service: value.service.wireName,
            startsAt: value.startsAt.microsecondsSinceEpoch, durationMinutes: value.durationMinutes,
            reason: value.reason, requestID: value.requestID)
    }

    static func clinics(_ value: Clinics.ClinicList) -> ClinicList {
        ClinicList(
            clinics: value.clinics.map { clinic in
                Clinic(
                    id: clinic.id, name: clinic.name, address: clinic.address, latitude: clinic.latitude,
                    longitude: clinic.longitude, timeZone: clinic.timeZone, phone: clinic.phone,
                    services: clinic.services.map(\.wireName),
                    hours: clinic.hours.map { Hours(weekday: $0.weekday.wireName, opens: $0.opens, closes: $0.closes) },
                    createdAt: clinic.createdAt.microsecondsSinceEpoch)
            })
    }
}
