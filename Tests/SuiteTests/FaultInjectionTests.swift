import Glibc
import IOInterface
import Testing
import VerticalsClient
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
@Suite(.blocking, .serialized, .timeLimit(.minutes(15)))
struct FaultInjectionTests {
    static let victims = ["appointments", "identity", "notifications", "supervisor"]

    @Test func bookingsUnderKillMinus9_areStoredAndNotifiedExactlyOnce() async throws {
        let soakSeconds = ProcessEnvironment.current["VT_SOAK_SECONDS"].flatMap { Int($0) } ?? 0
        let suite = try await SupervisedSuite.ready()
        // Each round books a clinic and days no earlier round used, so capacity never refuses it.
        let clinics = try await suite.clinicsNearLondon()
        let perRound = 80

        let started = ContinuousClock.now
        var round = 0
        var stats = SoakStats(residentAtStart: suite.residentBytes())
        repeat {
            round += 1
            let clinic = clinics[(round - 1) % clinics.count]
            let firstDay = 1 + (round - 1) / clinics.count * 10
            let slots = await BookingLedger.openSlots(suite.client, clinic: clinic, fromDay: firstDay, count: perRound)
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
            stats.discrepancies += try await BookingLedger.verify(
                suite.client, patient: patient, outcome: outcome, slots: slots)
        } while round < 2 || ContinuousClock.now - started < .seconds(soakSeconds)
        #expect(await suite.waitUntilAllReady())
        if soakSeconds > 0 {
            print(
                stats.report(
                    rounds: round, elapsed: ContinuousClock.now - started, residentAtEnd: suite.residentBytes()))
        }
        suite.down()
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
