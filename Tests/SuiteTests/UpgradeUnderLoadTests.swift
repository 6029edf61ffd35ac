import IOInterface
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// Issue 27 §3's check: 16 patients book continuously, each on a client (and connections) of its
/// own, while `svc-supervisor upgrade` hands appointments and then identity over to new processes
/// (the same executable as the "new build"). No booking call may see any error, not even one it
/// could retry, and every acknowledged booking is stored and notified exactly once.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct UpgradeUnderLoadTests {
    static let bookers = 16

    @Test func sixteenBookers_throughUpgradesOfAppointmentsAndIdentity_seeNoErrorAndLoseNothing() async throws {
        let suite = try SupervisedSuite()
        try await suite.up()
        #expect(await suite.waitUntilAllReady(), "the suite never came up")
        let clinics = try await suite.client.call(
            Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 20, service: .gp)
        ).clinics.map(\.clinic.id)
        try #require(clinics.count >= Self.bookers, "only \(clinics.count) clinics near London")

        var bookers: [(booker: Booker, client: ServiceClient, patient: String, slots: [Timestamp])] = []
        for index in 0..<Self.bookers {
            let slots = await BookingLedger.openSlots(suite.client, clinic: clinics[index], fromDay: 1, count: 150)
            #expect(slots.count == 150, "clinic \(clinics[index]) had only \(slots.count) open slots")
            let patient = try await suite.newPatient("u\(index)")
            let client = ServiceClient(
                loop: suite.loop, sockets: SocketDirectory(suite.run + "/sockets"), defaultTimeout: .seconds(10))
            bookers.append(
                (Booker(client: client, token: patient, clinic: clinics[index], slots: slots, round: index), client, patient, slots))
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

        var gaps: [String: String] = [:]
        for service in ["appointments", "identity"] {
            let before = suite.status()[service]?.pid
            let counts = bookers.map { $0.booker.attempts.current }
            let run = suite.run
            // Off the test's thread: the bookers' tasks share the cooperative pool (2 threads here).
            let result = try await Offload.run {
                try runCommand(
                    "svc-supervisor", ["upgrade", service, "--run-dir", run], in: TemporaryDirectory(), timeout: .seconds(120))
            }
            #expect(result.status == 0, "upgrade \(service): \(result.standardError)")
            #expect(result.standardOutput.contains("\(service): upgraded, pid \(before ?? 0) → pid"), "\(result.standardOutput)")
            gaps[service] = result.standardOutput.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
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
        let latencies = outcomes.flatMap(\.latencies).sorted()
        let booked = latencies.count
        let p99 = latencies.isEmpty ? .zero : latencies[min(booked - 1, booked * 99 / 100)]
        print("upgrade under load: \(booked) bookings by \(Self.bookers) clients, p99 \(p99), max \(latencies.last ?? .zero); "
            + gaps.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ";"))
        for entry in bookers { entry.client.close() }
        suite.down()
    }
}
