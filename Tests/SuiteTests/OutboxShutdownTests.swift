import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting

/// Appointments' outbox retries are the daemon's own background work, a service of its group:
/// SIGTERM during a retry backoff ends them with the daemon, within its drain time, and what was
/// not delivered is sent after the next start.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct OutboxShutdownTests {
    @Test func sigtermDuringARetryBackoff_exitsWithinTheDrainTime_andTheNextStartDelivers() async throws {
        let suite = try SuiteLauncher()
        // A drain time no test waits out: an exit seen before the time limit is one that did not
        // wait for it, whatever the retry task was doing.
        let drain = ["VERTICALS_DRAIN_SECONDS": "600", "APPOINTMENTS_RETRY_MAX_MS": "60000"]
        for name in ["identity", "clinics"] { try suite.start(name) }
        // Its log at `notice`, where each failed delivery says when the next retry is.
        let log = suite.directory.file("appointments.log")
        try suite.start(
            "appointments", extra: drain.merging(["VERTICALS_LOG_LEVEL": "notice"]) { $1 }, standardError: log)
        let client = suite.client
        _ = try await client.call(
            Identity.register, .init(email: "ada@example.org", password: "analytical-engine", displayName: "Ada"))
        let ada = try await client.call(Identity.login, .init(email: "ada@example.org", password: "analytical-engine"))
        let nearby = try await client.call(
            Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 1, service: .gp))
        let clinic = try #require(nearby.clinics.first?.clinic)
        let slot = try #require(await suite.openSlot(clinic: clinic.id, after: 1))

        // Notifications is not running: the booking holds, its notification waits in the outbox.
        let booked = try await client.call(
            Appointments.book,
            .init(
                token: ada.token, clinicID: clinic.id, service: .gp, startsAt: slot, durationMinutes: 20,
                reason: "check-up", requestID: "outbox-1"))
        #expect(booked.notified == false)

        // The fact to wait for: the retry task itself failed twice after the booking's own try,
        // so it runs and now sleeps a backoff of seconds (250 ms doubled per attempt).
        let failures = "not delivered"
        let backingOff = eventually(timeout: .seconds(60)) {
            (readFile(log) ?? "").components(separatedBy: failures).count - 1 >= 3
        }
        #expect(backingOff, "the outbox never retried twice:\n\(readFile(log) ?? "")")

        let appointments = try #require(suite.daemons["appointments"])
        appointments.signal(SIGTERM)
        // 90 s is far inside the 600 s drain time: an exit within it did not wait for the drain
        // timer, nor for the retry's backoff, whatever that was.
        let status = appointments.waitForExit(timeout: .seconds(90))
        #expect(status != nil, "appointments still runs after SIGTERM: its retry task held the drain")
        #expect(appointments.exited(with: 0), "exit status \(String(describing: status))")

        try suite.start("notifications")
        try suite.start("appointments", extra: drain)
        var delivered = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            delivered = (try? await client.call(Notifications.inbox, .init(token: ada.token)).notifications.count) ?? 0
            if delivered > 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(delivered == 1, "the queued notification is delivered once after the restart")
    }
}
