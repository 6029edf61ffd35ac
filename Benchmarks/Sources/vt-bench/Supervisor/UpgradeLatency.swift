import Foundation
import IOInterface
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// Section "upgrade": the latency of bookings while `supervisor.upgrade` hands
/// appointments over to a new process (the same executable), against the same window of bookings
/// with no upgrade, interleaved round by round (target: p99 ≤ 2×). 16 patients book in a loop on
/// connections of their own; a booking that fails is counted, and the row says so.
struct UpgradeLatency {
    let settings: BenchSettings
    let report: Report
    let loop: EventLoop
    var window: Duration = .seconds(2)
    var service = "appointments"
    static let clients = 16

    func run(_ suite: SupervisedSuite, setup: Setup, slots: BookingSlots) async {
        precondition(setup.tokens.count >= Self.clients, "the upgrade section needs \(Self.clients) patients")
        let clients = (0..<Self.clients).map { _ in
            ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        }
        defer { for client in clients { client.close() } }
        _ = await book(clients, setup: setup, slots: slots, for: .milliseconds(500)) // connections, caches
        var without: [Double] = []
        var during: [Double] = []
        var gaps: [Double] = []
        var failures = 0
        for round in 1...settings.rounds {
            progress("upgrade round \(round)/\(settings.rounds)")
            let plain = await book(clients, setup: setup, slots: slots, for: window)
            async let upgraded = book(clients, setup: setup, slots: slots, for: window)
            // Into the window, so bookings run before, through and after the hand-over.
            try? await Task.sleep(for: window / 4)
            do {
                let result = try await suite.control.call(
                    Supervisor.upgrade, .init(name: service), timeout: .seconds(60))
                gaps.append(result.gapSeconds * 1000)
            } catch {
                fail("upgrade of \(service) failed: \(error)")
            }
            let withUpgrade = await upgraded
            without.append(SuiteBenchmark.percentile(plain.latencies, 99) / 1000)
            during.append(SuiteBenchmark.percentile(withUpgrade.latencies, 99) / 1000)
            failures += plain.failures + withUpgrade.failures
        }
        report.add(
            "upgrade", "appointments.book p99 during an upgrade of \(service), \(Self.clients) clients", unit: "ms",
            ours: during, baselineName: "same window, no upgrade", baseline: without, ratioName: "upgrade/none",
            target: .atMost(2))
        report.add("upgrade", "callers' wait in the backlog (upgrade's gap)", unit: "ms", Summary(gaps))
        if failures > 0 { report.note("upgrade: \(failures) bookings failed (excluded from latencies)") }
    }

    /// Each client books in a loop for `duration`: latencies in µs, and failures.
    private func book(
        _ clients: [ServiceClient], setup: Setup, slots: BookingSlots, for duration: Duration
    ) async -> (latencies: [Double], failures: Int) {
        let start = ContinuousClock.now
        return await withTaskGroup(of: ([Double], Int).self) { group in
            for index in clients.indices {
                group.addTask(executorPreference: loop) {
                    var latencies: [Double] = []
                    var failures = 0
                    while ContinuousClock.now - start < duration {
                        let slot = slots.take()
                        let began = monotonicNanoseconds()
                        do {
                            _ = try await clients[index].call(
                                Appointments.book,
                                .init(
                                    token: setup.tokens[index], clinicID: setup.clinicID, service: .gp,
                                    startsAt: slot.startsAt, durationMinutes: BookingSlots.minutes, reason: "upgrade",
                                    requestID: "upgrade-\(slot.number)"))
                            latencies.append(Double(monotonicNanoseconds() - began) / 1000)
                        } catch {
                            failures += 1
                        }
                    }
                    return (latencies, failures)
                }
            }
            return await group.reduce(into: ([Double](), 0)) { total, one in
                total.0 += one.0
                total.1 += one.1
            }
        }
    }
}
