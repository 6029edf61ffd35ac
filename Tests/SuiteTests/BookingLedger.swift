import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// What a booking run is checked against: open slots to book, and afterwards the store and the
/// inbox compared with what the booker was told (FaultInjectionTests, NamespaceSuiteTests).
enum BookingLedger {
    /// Every acknowledged booking stored once and nothing else; one notification per booking.
    /// Returns how many bookings and notifications were lost, extra or doubled (0 when it passes).
    static func verify(
        _ client: ServiceClient, patient: String, outcome: Booker.Outcome, slots: [Timestamp]
    ) async throws -> Int {
        let stored = try await Self.stored(
            client, patient: patient, from: slots.first!.adding(.seconds(-3_600)),
            to: slots.last!.adding(.seconds(3_600)))
        let acknowledged = Set(outcome.acknowledged.values)
        #expect(acknowledged.count == outcome.acknowledged.count, "two request ids were answered with one booking")
        #expect(
            stored.count == outcome.acknowledged.count,
            "stored \(stored.count), acknowledged \(outcome.acknowledged.count)")
        #expect(Set(stored.map(\.id)) == acknowledged, "the store and the acknowledgements differ")
        // The outbox delivers in the background: wait for it, then count per booking.
        var keys: [String] = []
        for _ in 0..<300 {
            keys = await inboxKeys(client, patient: patient) ?? keys
            if keys.count >= acknowledged.count { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let expected = Set(acknowledged.map { "appointments.booked:\($0)" })
        #expect(keys.count == expected.count, "\(keys.count) notifications for \(expected.count) bookings")
        #expect(Set(keys) == expected, "notifications and bookings differ")
        let storedIDs = Set(stored.map(\.id))
        return storedIDs.symmetricDifference(acknowledged).count + (stored.count - storedIDs.count)
            + Set(keys).symmetricDifference(expected).count + (keys.count - Set(keys).count)
    }

    /// Every booking of `patient` (a session token) from `from` to `to`, cancelled ones too, page by
    /// page: a booker that booked past one page's worth (under a slow machine's longer upgrades)
    /// was once counted short by the first page alone.
    static func stored(_ client: ServiceClient, patient: String, from: Timestamp, to: Timestamp) async throws
        -> [Appointments.Appointment]
    {
        var stored: [Appointments.Appointment] = []
        var cursor: String?
        repeat {
            let page = Appointments.ListInput(
                token: patient, from: from, to: to, includeCancelled: true, limit: 200, cursor: cursor)
            let answer = try await retrying { try await client.call(Appointments.list, page) }
            stored += answer.appointments
            cursor = answer.nextCursor
        } while cursor != nil
        return stored
    }

    /// The deduplication keys of every notification in `patient`'s inbox, page by page (a long
    /// soak books more than one page); nil when a page could not be read.
    static func inboxKeys(_ client: ServiceClient, patient: String) async -> [String]? {
        var keys: [String] = []
        var cursor: String?
        repeat {
            guard
                let page = try? await client.call(
                    Notifications.inbox, .init(token: patient, limit: 200, cursor: cursor))
            else { return nil }
            keys += page.notifications.compactMap(\.deduplicationKey)
            cursor = page.nextCursor
        } while cursor != nil
        return keys
    }

    /// `count` non-overlapping 20-minute GP slots clinics says are open, from `fromDay` days on.
    static func openSlots(_ client: ServiceClient, clinic: String, fromDay: Int, count: Int) async -> [Timestamp] {
        let today = Timestamp.now.microsecondsSinceEpoch / 86_400_000_000 * 86_400
        var slots: [Timestamp] = []
        for day in fromDay..<(fromDay + 60) {
            for half in 18..<36 { // 09:00 to 17:30 UTC, every half hour
                let start = Timestamp(secondsSinceEpoch: today + Int64(day) * 86_400 + Int64(half) * 1_800)
                let check = try? await client.call(
                    Clinics.checkSlot,
                    .init(clinicID: clinic, service: .gp, startsAt: start, endsAt: start.adding(.seconds(1_200))))
                if check?.isOpen == true && check?.offersService == true { slots.append(start) }
                if slots.count == count { return slots }
            }
        }
        return slots
    }

    /// The whole booking journey through `client`: a new patient registers and logs in, finds a
    /// clinic near London, books its first open GP slot, and the booking's notification arrives
    /// in the patient's inbox (delivered by appointments' outbox).
    static func journey(_ client: ServiceClient) async throws {
        let patient = try await SupervisedSuite.newPatient("journey", through: client)
        let clinics = try await retrying {
            try await client.call(Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 5, service: .gp))
        }
        let clinic = try #require(clinics.clinics.first?.clinic.id, "no clinic near London")
        let slot = try #require(await openSlots(client, clinic: clinic, fromDay: 2, count: 1).first, "no open slot")
        let booking = try await retrying {
            try await client.call(
                Appointments.book,
                .init(
                    token: patient, clinicID: clinic, service: .gp, startsAt: slot, durationMinutes: 20,
                    reason: "journey",
                    requestID: "journey-1"))
        }
        var delivered = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !delivered, ContinuousClock.now < deadline {
            let inbox = try? await client.call(Notifications.inbox, .init(token: patient, limit: 20))
            delivered =
                inbox?.notifications.contains { $0.deduplicationKey == "appointments.booked:\(booking.id)" } == true
            if !delivered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(delivered, "the booking's notification never reached the inbox")
    }
}
