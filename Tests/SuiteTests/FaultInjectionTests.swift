import Glibc
import IOInterface
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// Nothing lost: a patient books in a loop, each booking under its own request id and retried
/// on `unavailable`/`deadlineExceeded`, while kill -9 takes appointments, identity,
/// notifications and then svc-supervisor itself (started again with `up` on the same run
/// directory). Afterwards every acknowledged booking is stored exactly once, none exists that
/// was not asked for, each has exactly one notification in the inbox, and every service is ready.
///
/// `make test` runs two rounds of kills; `make soak` sets `VT_SOAK_SECONDS` and rounds go on for
/// that long (at most ~13 minutes: the suite's time limit), a new patient per round, and it
/// prints what it measured.
@Suite(.serialized, .timeLimit(.minutes(15)))
struct FaultInjectionTests {
    static let victims = ["appointments", "identity", "notifications", "supervisor"]

    @Test func bookingsUnderKillMinus9_areStoredAndNotifiedExactlyOnce() async throws {
        let soakSeconds = ProcessEnvironment.current["VT_SOAK_SECONDS"].flatMap { Int($0) } ?? 0
        let suite = try SupervisedSuite()
        try await suite.up()
        #expect(await suite.waitUntilAllReady(), "the suite never came up")
        // Each round books a clinic and days no earlier round used, so capacity never refuses it.
        let clinics = try await suite.client.call(
            Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 20, service: .gp)
        ).clinics.map(\.clinic.id)
        let perRound = 80

        let started = ContinuousClock.now
        var round = 0
        var stats = SoakStats(residentAtStart: suite.residentBytes())
        repeat {
            round += 1
            let clinic = clinics[(round - 1) % clinics.count]
            let firstDay = 1 + (round - 1) / clinics.count * 10
            let slots = await openSlots(suite.client, clinic: clinic, fromDay: firstDay, count: perRound)
            #expect(slots.count == perRound, "clinic \(clinic) had only \(slots.count) open slots")
            let patient = try await suite.newPatient("p\(round)")
            let booker = Booker(client: suite.client, token: patient, clinic: clinic, slots: slots, round: round)
            let booking = Task { await booker.run() }
            // The kills land while bookings go on: only once the booker has made its first call (a
            // booker task that started late saw all four kills, 150 ms apart, before its first).
            let deadline = ContinuousClock.now + .seconds(60)
            while booker.attempts.current == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(booker.attempts.current > 0, "the booker made no call in a minute")
            for victim in Self.victims {
                try await Task.sleep(for: .milliseconds(150))
                try await suite.kill(victim)
                #expect(await suite.waitUntilAllReady(), "not every service came back after killing \(victim)")
            }
            booker.stop.set()
            let outcome = await booking.value
            stats.add(outcome)
            #expect(outcome.failures.isEmpty, "bookings failed for good: \(outcome.failures.prefix(3))")
            stats.discrepancies += try await verify(suite, patient: patient, outcome: outcome, slots: slots)
        } while round < 2 || ContinuousClock.now - started < .seconds(soakSeconds)
        #expect(await suite.waitUntilAllReady())
        if soakSeconds > 0 {
            print(stats.report(rounds: round, elapsed: ContinuousClock.now - started, residentAtEnd: suite.residentBytes()))
        }
        suite.down()
    }

    /// Every acknowledged booking stored once and nothing else; one notification per booking.
    /// Returns how many bookings and notifications were lost, extra or doubled (0 when it passes).
    private func verify(
        _ suite: SupervisedSuite, patient: String, outcome: Booker.Outcome, slots: [Timestamp]
    ) async throws -> Int {
        let client = suite.client
        let window = Appointments.ListInput(
            token: patient, from: slots.first!.adding(.seconds(-3_600)), to: slots.last!.adding(.seconds(3_600)),
            includeCancelled: true)
        let stored = try await retrying { try await client.call(Appointments.list, window) }.appointments
        let acknowledged = Set(outcome.acknowledged.values)
        #expect(acknowledged.count == outcome.acknowledged.count, "two request ids were answered with one booking")
        #expect(stored.count == outcome.acknowledged.count, "stored \(stored.count), acknowledged \(outcome.acknowledged.count)")
        #expect(Set(stored.map(\.id)) == acknowledged, "the store and the acknowledgements differ")
        // The outbox delivers in the background: wait for it, then count per booking.
        var keys: [String] = []
        for _ in 0..<300 {
            let inbox = try? await client.call(Notifications.inbox, .init(token: patient, limit: 200))
            keys = inbox?.notifications.compactMap(\.deduplicationKey) ?? keys
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

    /// `count` non-overlapping 20-minute GP slots clinics says are open, from `fromDay` days on.
    private func openSlots(_ client: ServiceClient, clinic: String, fromDay: Int, count: Int) async -> [Timestamp] {
        let today = Timestamp.now.microsecondsSinceEpoch / 86_400_000_000 * 86_400
        var slots: [Timestamp] = []
        for day in fromDay..<(fromDay + 60) {
            for half in 18..<36 {  // 09:00 to 17:30 UTC, every half hour
                let start = Timestamp(secondsSinceEpoch: today + Int64(day) * 86_400 + Int64(half) * 1_800)
                let check = try? await client.call(
                    Clinics.checkSlot, .init(clinicID: clinic, service: .gp, startsAt: start, endsAt: start.adding(.seconds(1_200))))
                if check?.isOpen == true && check?.offersService == true { slots.append(start) }
                if slots.count == count { return slots }
            }
        }
        return slots
    }
}

/// Retries `body` while it fails with a retryable error, for up to 30 s.
func retrying<T>(_ body: () async throws -> T) async throws -> T {
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
        do {
            return try await body()
        } catch let error as ServiceError where error.retryable && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
