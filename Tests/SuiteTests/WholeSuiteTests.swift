import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The reference suite end to end: five daemons, real SQLite stores, calls only through IOInterface.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct WholeSuiteTests {
    /// The patient's inbox size, polled until it reaches `count`, up to a bound in time rather
    /// than in tries: a slow call on a loaded machine does not shorten it.
    private func inboxCount(_ client: ServiceClient, token: String, reaching count: Int) async -> Int {
        var seen = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            seen = (try? await client.call(Notifications.inbox, .init(token: token)).notifications.count) ?? 0
            if seen >= count { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return seen
    }

    /// The booking as `get` shows it once appointments has recorded its notification as sent (the
    /// outbox records it after notifications answered, so the inbox may show it first), or as it
    /// last was when that has not happened within a minute.
    private func bookingOnceNotified(
        _ client: ServiceClient, token: String, id: String
    ) async throws -> Appointments.Appointment {
        let deadline = ContinuousClock.now + .seconds(60)
        var booking = try await client.call(Appointments.get, .init(token: token, id: id))
        while booking.notification != .sent, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            booking = try await client.call(Appointments.get, .init(token: token, id: id))
        }
        return booking
    }

    @Test func patientJourney_acrossAllFiveVerticals() async throws {
        let suite = try SuiteLauncher()
        try suite.startAll()
        let client = suite.client

        // Identity: two patients.
        _ = try await client.call(
            Identity.register, .init(email: "ada@example.org", password: "analytical-engine", displayName: "Ada"))
        _ = try await client.call(
            Identity.register, .init(email: "bob@example.org", password: "difference-engine", displayName: "Bob"))
        let ada = try await client.call(Identity.login, .init(email: "ada@example.org", password: "analytical-engine"))
        let bob = try await client.call(Identity.login, .init(email: "bob@example.org", password: "difference-engine"))

        // Clinics: the seeded directory answers nearest at once.
        let nearby = try await client.call(
            Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 3, service: .gp))
        let clinic = try #require(nearby.clinics.first?.clinic)
        #expect(nearby.clinics.count == 3)
        #expect(nearby.clinics.map(\.distanceMetres) == nearby.clinics.map(\.distanceMetres).sorted())

        // Appointments: book an open slot; it is listed and the patient is told.
        let first = try #require(await suite.openSlot(clinic: clinic.id, after: 1))
        let gpVisit = { (startsAt: Timestamp, reason: String, requestID: String) in
            Appointments.BookInput(
                token: ada.token, clinicID: clinic.id, service: .gp, startsAt: startsAt, durationMinutes: 20,
                reason: reason, requestID: requestID)
        }
        let booked = try await client.call(Appointments.book, gpVisit(first, "cough", "journey-1"))
        #expect(booked.status == .booked)
        #expect(booked.clinicName == clinic.name)
        let retried = try await client.call(Appointments.book, gpVisit(first, "cough", "journey-1"))
        #expect(retried.id == booked.id)
        let window = Appointments.ListInput(
            token: ada.token, from: first.adding(.seconds(-86_400)), to: first.adding(.seconds(86_400 * 30)))
        #expect(try await client.call(Appointments.list, window).appointments.map(\.id) == [booked.id])
        // `book` answered once the booking and its queued notification were durable; the outbox
        // delivers it after, and `get` then says so.
        #expect(booked.notification == .queued)
        #expect(await inboxCount(client, token: ada.token, reaching: 1) == 1)
        let inbox = try await client.call(Notifications.inbox, .init(token: ada.token))
        let delivered = try await bookingOnceNotified(client, token: ada.token, id: booked.id)
        #expect(delivered.notification == .sent && delivered.notified)

        // Records: an entry at that clinic, read back with the clinic's name resolved.
        let entry = try await client.call(
            Records.addEntry, .init(token: ada.token, kind: .allergy, text: "penicillin", clinicID: clinic.id))
        let history = try await client.call(Records.history, .init(token: ada.token))
        #expect(history.entries.map(\.id) == [entry.id])
        #expect(history.entries.first?.clinicName == clinic.name)

        // Notifications down: booking still succeeds; the notification arrives once it is back.
        suite.stop("notifications")
        let second = try #require(await suite.openSlot(clinic: clinic.id, after: 2, laterThan: first))
        let offline = try await client.call(Appointments.book, gpVisit(second, "follow-up", "journey-2"))
        #expect(offline.status == .booked)
        #expect(offline.notified == false && offline.notification == .queued)
        try suite.start("notifications")
        // Polled until the outbox has delivered it (retries every 200 ms here).
        #expect(await inboxCount(client, token: ada.token, reaching: 2) == 2)

        // Every cross-user access is refused.
        try await expectCode(.permissionDenied) {
            try await client.call(Appointments.get, .init(token: bob.token, id: booked.id))
        }
        try await expectCode(.permissionDenied) {
            try await client.call(Appointments.cancel, .init(token: bob.token, id: booked.id))
        }
        let adaNote = try #require(inbox.notifications.first)
        try await expectCode(.permissionDenied) {
            try await client.call(Notifications.markRead, .init(token: bob.token, id: adaNote.id))
        }
        try await expectCode(.permissionDenied) {
            try await client.call(Records.deleteEntry, .init(token: bob.token, id: entry.id))
        }
        #expect(try await client.call(Records.history, .init(token: bob.token)).entries.isEmpty)
        #expect(try await client.call(Notifications.inbox, .init(token: bob.token)).notifications.isEmpty)
        #expect(
            try await client.call(Appointments.list, .init(token: bob.token, from: window.from, to: window.to))
                .appointments.isEmpty)
        try await expectCode(.unauthenticated) {
            try await client.call(Appointments.list, .init(token: "forged", from: window.from, to: window.to))
        }

        // Logout takes effect at once in every vertical, though identity answered for this token many times before.
        _ = try await client.call(Identity.logout, .init(token: ada.token))
        try await expectCode(.unauthenticated) { try await client.call(Appointments.list, window) }
        try await expectCode(.unauthenticated) { try await client.call(Notifications.inbox, .init(token: ada.token)) }
        try await expectCode(.unauthenticated) { try await client.call(Records.history, .init(token: ada.token)) }
    }

    @Test func callerAnswersTypedErrors_whenACalleeIsDown() async throws {
        let suite = try SuiteLauncher()
        try suite.startAll()
        let client = suite.client
        let token = try await SupervisedSuite.newPatient("Cy", through: client)
        suite.stop("clinics")
        let start = ContinuousClock.now
        try await expectCode(.unavailable) {
            try await client.call(
                Appointments.book,
                .init(
                    token: token, clinicID: "anything", service: .gp,
                    startsAt: Timestamp.now.adding(.seconds(86_400)),
                    durationMinutes: 20, reason: "", requestID: "down-1"),
                timeout: .seconds(600))
        }
        // At once, not at the ten-minute deadline (the test's own limit is 3 minutes); a loaded
        // machine's stalls, 31 s seen, stay far below this bound.
        #expect(ContinuousClock.now - start < .seconds(90))
        let listed = try await client.call(
            Appointments.list,
            .init(token: token, from: Timestamp.now, to: Timestamp.now.adding(.seconds(86_400 * 7))))
        #expect(listed.appointments.isEmpty)
    }

    private func expectCode<T>(
        _ code: ErrorCode, _ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        do {
            _ = try await body()
            Issue.record("expected \(code), got a value", sourceLocation: sourceLocation)
        } catch let error as ServiceError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }
}

extension Timestamp {
    /// The wall-clock time now.
    static var now: Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }
}
