import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// An upgrade drops no call: 16 patients book continuously, each on a client (and connections) of its
/// own, while `svc-supervisor upgrade` hands appointments and then identity over to new processes
/// (the same executable as the "new build"). No booking call may see any error, not even one it
/// could retry, and every acknowledged booking is stored and notified exactly once.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct UpgradeUnderLoadTests {
    static let bookers = 16

    @Test func sixteenBookers_throughUpgradesOfAppointmentsAndIdentity_seeNoErrorAndLoseNothing() async throws {
        let suite = try await SupervisedSuite.ready()
        let clinics = try await suite.clinicsNearLondon()
        try #require(clinics.count >= Self.bookers, "only \(clinics.count) clinics near London")

        var bookers: [(booker: Booker, client: ServiceClient, patient: String, slots: [Timestamp])] = []
        for index in 0..<Self.bookers {
            let slots = await BookingLedger.openSlots(suite.client, clinic: clinics[index], fromDay: 1, count: 150)
            #expect(slots.count == 150, "clinic \(clinics[index]) had only \(slots.count) open slots")
            let patient = try await suite.newPatient("u\(index)")
            let client = ServiceClient(
                loop: suite.loop, sockets: SocketDirectory(suite.run + "/sockets"), defaultTimeout: .seconds(10))
            bookers.append(
                (
                    Booker(client: client, token: patient, clinic: clinics[index], slots: slots, round: index), client,
                    patient, slots
                ))
        }
        let tasks = bookers.map { entry in Task { await entry.booker.run() } }
        // Every booker books before the first upgrade, between the two and after the second.
        func everyBookerCalls(beyond counts: [Int]) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                if zip(bookers, counts).allSatisfy({ $0.booker.attempts.current >= $1 + 3 }) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
        #expect(await everyBookerCalls(beyond: Array(repeating: 0, count: Self.bookers)), "not every booker booked")
        // A stretch without an upgrade, whose latencies the upgrades' are compared with (the bench's
        // upgrade section, in the small).
        try await Task.sleep(for: .seconds(1.5))

        var gaps: [String: String] = [:]
        var upgrading: [ClosedRange<ContinuousClock.Instant>] = []
        for service in ["appointments", "identity"] {
            let began = ContinuousClock.now
            let before = suite.status()[service]?.pid
            let counts = bookers.map { $0.booker.attempts.current }
            let run = suite.run
            // Off the test's thread: the bookers' tasks share the cooperative pool (2 threads here).
            let result = try await Offload.run {
                try runCommand(
                    "svc-supervisor", ["upgrade", service, "--run-dir", run], in: TemporaryDirectory(),
                    timeout: .seconds(120))
            }
            #expect(result.status == 0, "upgrade \(service): \(result.standardError)")
            #expect(
                result.standardOutput.contains("\(service): upgraded, pid \(before ?? 0) → pid"),
                "\(result.standardOutput)")
            gaps[service] = result.standardOutput.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
            upgrading.append(began...ContinuousClock.now)
            let after = suite.status()[service]?.pid
            #expect(after != nil && after != before, "\(service) still runs pid \(before ?? 0)")
            #expect(await everyBookerCalls(beyond: counts), "not every booker booked after the upgrade of \(service)")
        }
        for entry in bookers { entry.booker.stop.set() }
        var outcomes: [Booker.Outcome] = []
        for task in tasks { outcomes.append(await task.value) }
        #expect(await suite.waitUntilAllReady())

        var discrepancies = 0
        for (entry, outcome) in zip(bookers, outcomes) {
            #expect(outcome.failures.isEmpty, "bookings failed: \(outcome.failures.prefix(3))")
            #expect(outcome.errors.isEmpty, "a booking call saw errors (even retried ones count): \(outcome.errors)")
            discrepancies += try await BookingLedger.verify(
                suite.client, patient: entry.patient, outcome: outcome, slots: entry.slots)
        }
        #expect(discrepancies == 0)
        // Bookings in flight during an upgrade (from `upgrade` called to answered), against those
        // done before the first one began.
        let firstUpgrade = upgrading.first?.lowerBound ?? .now
        var before: [Duration] = []
        var during: [Duration] = []
        for (latency, booking) in outcomes.flatMap(\.inFlight) {
            if upgrading.contains(where: { $0.overlaps(booking) }) {
                during.append(latency)
            } else if booking.upperBound < firstUpgrade {
                before.append(latency)
            }
        }
        #expect(!during.isEmpty, "no booking was in flight during an upgrade")
        print(
            "upgrade under load (\(outcomes.flatMap(\.latencies).count) bookings by \(Self.bookers) clients): "
                + "without an upgrade \(Self.percentiles(before)), during one \(Self.percentiles(during)); "
                + gaps.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ";"))
        for entry in bookers { entry.client.close() }
        suite.down()
    }

    /// "n=120 p50 21 ms p99 190 ms".
    static func percentiles(_ latencies: [Duration]) -> String {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return "n=0" }
        func ms(_ fraction: Double) -> Int {
            let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
            return Int(value.components.seconds * 1000 + value.components.attoseconds / 1_000_000_000_000_000)
        }
        return "n=\(sorted.count) p50 \(ms(0.5)) ms p99 \(ms(0.99)) ms"
    }
}
