import IOInterface
import VerticalsContract
import VerticalsWire

/// The three DTOs the codec is measured on: a small one, the booking Input (strings, an enum,
/// a timestamp), and a list of 100 clinics (nested messages with arrays).
enum CodecFixtures {
    static let login = Identity.LoginInput(email: "ada.lovelace@example.org", password: "analytical-engine-1843")

    static let booking = Appointments.BookInput(
        token: "s_9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        clinicID: "c_0193f4a2-7b1e-7c3d-9e4f-5a6b7c8d9e0f", service: .physiotherapy,
        startsAt: Timestamp(secondsSinceEpoch: 1_900_000_000), durationMinutes: 30,
        reason: "Follow-up on a sprained left ankle; swelling has gone down but stairs still hurt.",
        requestID: "r_7d793037a0760186574b0282f2f435e7")

    static let clinics = Clinics.ClinicList(clinics: (0..<100).map(clinic))

    static func clinic(_ index: Int) -> Clinics.Clinic {
        let weekdays: [Clinics.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
        return Clinics.Clinic(
            id: "c_0193f4a2-7b1e-7c3d-9e4f-\(String(100_000_000_000 + index))",
            name: "Riverside Health Centre \(index)", address: "\(index) High Street, London SE1 \(index % 10)AB",
            latitude: 51.5 + Double(index) / 1000, longitude: -0.12 - Double(index) / 1000, timeZone: "Europe/London",
            phone: index % 3 == 0 ? nil : "+44 20 7946 \(String(1000 + index))",
            services: [.gp, .pharmacy, .vaccination, .bloodTest],
            hours: weekdays.map { Clinics.OpeningHours(weekday: $0, opens: 8 * 60, closes: 18 * 60 + 30) }
                + [Clinics.OpeningHours(weekday: .saturday, opens: 9 * 60, closes: 13 * 60)],
            createdAt: Timestamp(secondsSinceEpoch: 1_800_000_000 + Int64(index)))
    }
}
