import AppointmentsService
import Foundation
import IOInterface
import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsStorage
import VerticalsWire

/// Section 5: `appointments.book` end to end through the supervised suite (identity
/// authenticates, clinics checks the slot, appointments commits the booking and its outbox
/// message in one commit and answers; notifications gets the message after, from the outbox) with
/// 1 and 16 concurrent clients, against the durability floor: the same insert + commit through
/// appointments' own BookingStore, in this process, with `synchronous=FULL`, by as many tasks.
/// Targets: 1-client p50 ≤ 1.5× the floor's, 16 clients' rate ≥ 0.9× the floor's.
struct SuiteBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop
    var slice: Duration = .milliseconds(1500)
    static let clientCounts = [1, 16]

    /// What one timed run gave: bookings per second and each booking's latency in µs.
    struct Run {
        var rate: Double
        var latencies: [Double]
    }

    /// Books through `suite` as `setup`'s patients (at least ``clientCounts``' largest), in
    /// `suiteSlots` (shared with any other section that books, so no two bookings overlap).
    func run(_ suite: SupervisedSuite, setup: Setup, suiteSlots: BookingSlots) async {
        let floor = openFloor()
        let floorSlots = BookingSlots(now: Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)))
        let clients = (0..<Self.clientCounts.max()!).map { _ in
            ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        }
        _ = await book(clients: Array(clients.prefix(1)), setup: setup, slots: suiteSlots, for: .milliseconds(300))
        var suiteRuns: [Int: [Run]] = [:]
        var floorRuns: [Int: [Run]] = [:]
        let legs = BookingLegs(setup: setup, client: clients[0], loop: loop)
        var legTimes: [String: [Double]] = [:]
        for round in 1...settings.rounds {
            progress("suite round \(round)/\(settings.rounds)")
            for (name, milliseconds) in await legs.medians() { legTimes[name, default: []].append(milliseconds) }
            for count in Self.clientCounts {
                floorRuns[count, default: []].append(await insert(floor, tasks: count, slots: floorSlots))
                suiteRuns[count, default: []].append(
                    await book(clients: Array(clients.prefix(count)), setup: setup, slots: suiteSlots, for: slice))
            }
        }
        for client in clients { client.close() }
        for name in BookingLegs.names {
            report.add("suite", "a booking's leg: \(name) p50, 1 client", unit: "ms", Summary(legTimes[name]!))
        }
        for count in Self.clientCounts {
            let ours = suiteRuns[count]!
            let base = floorRuns[count]!
            let name = "book, \(count) client\(count == 1 ? "" : "s")"
            report.add(
                "suite", name, unit: "bookings/s", ours: ours.map(\.rate), baselineName: "floor",
                baseline: base.map(\.rate), ratioName: "ours/floor", target: count == 16 ? .atLeast(0.9) : nil)
            report.add(
                "suite", "\(name) p50", unit: "ms", ours: ours.map { Self.percentile($0.latencies, 50) / 1000 },
                baselineName: "floor", baseline: base.map { Self.percentile($0.latencies, 50) / 1000 },
                ratioName: "ours/floor", target: count == 1 ? .atMost(1.5) : nil)
            report.add(
                "suite", "\(name) p99", unit: "ms", ours: ours.map { Self.percentile($0.latencies, 99) / 1000 },
                baselineName: "floor", baseline: base.map { Self.percentile($0.latencies, 99) / 1000 },
                ratioName: "ours/floor")
        }
    }

    // MARK: The suite

    /// Books for `duration` with one task per client, each on its own connection.
    func book(clients: [ServiceClient], setup: Setup, slots: BookingSlots, for duration: Duration) async -> Run {
        await Self.timed(tasks: clients.count, for: duration, on: loop) { index in
            let slot = slots.take()
            let input = Appointments.BookInput(
                token: setup.tokens[index], clinicID: setup.clinicID, service: .gp, startsAt: slot.startsAt,
                durationMinutes: BookingSlots.minutes, reason: "benchmark booking", requestID: "bench-\(slot.number)")
            do {
                _ = try await clients[index].call(Appointments.book, input)
            } catch {
                fail("appointments.book failed: \(error)")
            }
        }
    }

    /// Runs `operation` in a loop on `tasks` concurrent tasks for `duration`: the rate and each call's latency (µs).
    static func timed(
        tasks: Int, for duration: Duration, on executor: (any TaskExecutor)?,
        _ operation: @escaping @Sendable (Int) async -> Void
    ) async -> Run {
        let start = ContinuousClock.now
        let latencies = await withTaskGroup(of: [Double].self) { group in
            for index in 0..<tasks {
                group.addTask(executorPreference: executor) {
                    var latencies: [Double] = []
                    while ContinuousClock.now - start < duration {
                        let began = monotonicNanoseconds()
                        await operation(index)
                        latencies.append(Double(monotonicNanoseconds() - began) / 1000)
                    }
                    return latencies
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        return Run(rate: Double(latencies.count) / (ContinuousClock.now - start).seconds, latencies: latencies)
    }

    // MARK: The floor

    private func openFloor() -> BookingStore {
        do {
            let database = try SQLiteStore.open(
                directory: "\(directory)/floor", migrator: Migrations.all, durability: .full)
            return BookingStore(database: database)
        } catch {
            fail("cannot open the floor's store: \(error)")
        }
    }

    /// The same transaction appointments commits for a booking, by `tasks` concurrent tasks.
    func insert(_ store: BookingStore, tasks: Int, slots: BookingSlots) async -> Run {
        await Self.timed(tasks: tasks, for: slice, on: nil) { task in
            let slot = slots.take()
            let now = Timestamp(microsecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1e6))
            let id = "floor-\(slot.number)"
            let booking = Booking(
                id: id, patientID: "patient-\(task)", clinicID: "clinic-floor", clinicName: "Floor Clinic",
                service: .gp, startsAt: slot.startsAt,
                endsAt: slot.startsAt.adding(.seconds(BookingSlots.minutes * 60)),
                reason: "benchmark booking", status: .booked, createdAt: now, requestID: id, notified: false)
            let message = OutboxMessage(
                appointmentID: id, userID: booking.patientID, title: "Appointment booked",
                body: "gp at Floor Clinic on \(slot.startsAt). Reference \(id).",
                deduplicationKey: "appointments.booked:\(id)", now: now)
            do {
                _ = try await store.insert(booking, outbox: message, capacity: 2)
            } catch {
                fail("the floor's insert failed: \(error)")
            }
        }
    }

    static func percentile(_ values: [Double], _ percentile: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * percentile / 100))]
    }
}
