import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// Inputs that once stopped a daemon, sent to the real ones over their sockets: each is answered
/// with a typed error, and the daemon that got it goes on serving, the same process.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct HostileInputSuiteTests {
    @Test func checkSlot_withTheAttacksTimestamps_isInvalidInput_fiveTimes_andClinicsStaysUp() async throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        let clinics = try #require(suite.daemons["clinics"])
        let nearby = try await suite.client.call(
            Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 1))
        let clinic = try #require(nearby.clinics.first?.clinic)
        // About the years −290000 and +290000: once `end - start` trapped (SIGILL), and five such
        // calls spent clinics' restart budget.
        let attack = Clinics.CheckSlotInput(
            clinicID: clinic.id, service: .gp, startsAt: Timestamp(microsecondsSinceEpoch: -9_151_000_000_000_000_000),
            endsAt: Timestamp(microsecondsSinceEpoch: 9_151_000_000_000_000_000))

        for _ in 0..<5 {
            let error = await #expect(throws: ServiceError.self) {
                try await suite.client.call(Clinics.checkSlot, attack)
            }
            #expect(error?.code == .invalidInput)
            #expect(error?.detail("field") == "startsAt")
        }

        #expect(clinics.waitForExit(timeout: .milliseconds(200)) == nil, "clinics exited")
        let again = try await suite.client.call(Clinics.get, .init(id: clinic.id))
        #expect(again.id == clinic.id)
    }

    @Test func register_withADisplayNameOfOneHeavyCharacter_isInvalidInput_namingTheField() async throws {
        let suite = try SuiteLauncher()
        try suite.start("identity")
        let heavy = "a" + String(repeating: "\u{301}", count: 100_000)

        let error = await #expect(throws: ServiceError.self) {
            try await suite.client.call(
                Identity.register, .init(email: "ada@example.org", password: "analytical-engine", displayName: heavy))
        }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "displayName")
        #expect(error?.message.contains("over its bound of 4096 bytes") == true)
        _ = try await suite.client.call(
            Identity.register, .init(email: "ada@example.org", password: "analytical-engine", displayName: "Ada"))
    }
}
