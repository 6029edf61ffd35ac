import IOInterface
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit

/// The suite's state a booking needs: patients' session tokens and a clinic open around the clock.
struct Setup: Sendable {
    /// Every account's password; patient `i` is `patient<i>@example.org`.
    static let password = "benchmark-password-1"
    var tokens: [String]
    var userIDs: [String]
    var clinicID: String

    static func make(suite: SupervisedSuite, loop: EventLoop, patients: Int) async -> Setup {
        let password = Self.password
        let client = ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(30))
        defer { client.close() }
        do {
            // The first admin, as `svc-supervisor admin create` makes it: the bench runs as the operator.
            _ = try await client.call(
                Identity.createAdmin, .init(email: "admin@example.org", password: password, displayName: "Bench Admin"))
            let admin = try await client.call(Identity.login, .init(email: "admin@example.org", password: password))
            let everyDay: [Clinics.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
            let clinic = try await client.call(
                Clinics.create,
                .init(
                    token: admin.token, name: "Benchmark Clinic", address: "1 Benchmark Road, London", latitude: 51.5,
                    longitude: -0.12, timeZone: "UTC", services: [.gp],
                    hours: everyDay.map { .init(weekday: $0, opens: 0, closes: 1440) }))
            var tokens: [String] = []
            var userIDs: [String] = []
            for index in 0..<patients {
                let email = "patient\(index)@example.org"
                _ = try await client.call(
                    Identity.register, .init(email: email, password: password, displayName: "Patient \(index)"))
                let session = try await client.call(Identity.login, .init(email: email, password: password))
                tokens.append(session.token)
                userIDs.append(session.userID)
            }
            return Setup(tokens: tokens, userIDs: userIDs, clinicID: clinic.id)
        } catch {
            fail("setting up the suite for bookings failed: \(error)")
        }
    }
}
