import Foundation
import IOInterface
import Synchronization
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// Section "mixed": the whole suite under the mix a clinic network sees, so the
/// next bottleneck shows: 16 patients, each on its own connections, calling in turn searches,
/// nearest clinics, inbox reads, histories, bookings and logins (the ``schedule``), for a slice
/// per round. Reported per operation (p50/p99), in total (requests a second), and per daemon
/// (CPU per request of the mix: the daemon's user + system time over the slice, divided by the
/// requests the clients completed, so a daemon many operations pass through shows its share).
/// There is no baseline: this is where the suite stands, for the next change to compare with.
struct MixedLoad {
    let settings: BenchSettings
    let report: Report
    let loop: EventLoop
    var slice: Duration = .seconds(3)
    static let clients = 16

    /// The operations of the mix.
    enum Kind: String, CaseIterable, Sendable {
        case search = "clinics.search"
        case nearest = "clinics.nearest"
        case inbox = "notifications.inbox"
        case history = "records.history"
        case book = "appointments.book"
        case login = "identity.login"
    }

    /// One client's cycle of 20 requests: reads dominate, as in a patient-facing product, and a
    /// login (a password hash, by design the dearest request) is one in 20; each client starts at
    /// its own offset so all kinds run at once.
    static let schedule: [Kind] = {
        let weights: [(Kind, Int)] = [(.search, 6), (.nearest, 3), (.inbox, 4), (.history, 3), (.book, 3), (.login, 1)]
        var cycle: [Kind] = []
        var left = weights
        while left.contains(where: { $0.1 > 0 }) {  // interleaved: s n i h b l s n i h …
            for index in left.indices where left[index].1 > 0 {
                cycle.append(left[index].0)
                left[index].1 -= 1
            }
        }
        return cycle
    }()

    /// What one round gave: latencies (µs) by kind, failures by kind, and the window's length.
    struct Round {
        var latencies: [Kind: [Double]] = [:]
        var failures: [Kind: Int] = [:]
        var seconds: Double = 0
        var requests: Int { latencies.values.reduce(0) { $0 + $1.count } }
    }

    func run(_ suite: SupervisedSuite, setup: Setup, slots: BookingSlots) async {
        precondition(setup.tokens.count >= Self.clients, "the mix needs \(Self.clients) patients")
        let clients = (0..<Self.clients).map { _ in
            ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        }
        defer { for client in clients { client.close() } }
        let pids = await suite.pids()
        let names = pids.keys.sorted()
        _ = await mix(clients: clients, setup: setup, slots: slots, for: .milliseconds(500))  // connections, caches
        var rounds: [Round] = []
        var cpuPerRequest: [String: [Double]] = [:]
        for round in 1...settings.rounds {
            progress("mixed round \(round)/\(settings.rounds)")
            let before = pids.mapValues { ProcessStats.cpuSeconds($0) ?? 0 }
            let result = await mix(clients: clients, setup: setup, slots: slots, for: slice)
            let after = pids.mapValues { ProcessStats.cpuSeconds($0) ?? 0 }
            for name in names {
                let used = (after[name] ?? 0) - (before[name] ?? 0)
                cpuPerRequest[name, default: []].append(used / Double(max(result.requests, 1)) * 1e6)
            }
            rounds.append(result)
        }
        report.add(
            "mixed", "all operations, \(Self.clients) clients", unit: "req/s",
            Summary(rounds.map { Double($0.requests) / $0.seconds }))
        for kind in Kind.allCases {
            let series = rounds.map { $0.latencies[kind] ?? [] }
            guard series.allSatisfy({ !$0.isEmpty }) else { continue }
            report.add(
                "mixed", "\(kind.rawValue) p50", unit: "ms",
                Summary(series.map { SuiteBenchmark.percentile($0, 50) / 1000 }))
            report.add(
                "mixed", "\(kind.rawValue) p99", unit: "ms",
                Summary(series.map { SuiteBenchmark.percentile($0, 99) / 1000 }))
        }
        for name in names {
            report.add("mixed", "\(name) CPU per request of the mix", unit: "µs", Summary(cpuPerRequest[name]!))
        }
        let failures = rounds.reduce(into: [Kind: Int]()) { total, round in
            for (kind, count) in round.failures { total[kind, default: 0] += count }
        }
        if !failures.isEmpty {
            let text = failures.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
            report.note("mixed: failed requests (excluded from latencies): \(text.joined(separator: ", "))")
        }
    }

    /// Each client calls its ``schedule`` in a loop for `duration`.
    func mix(clients: [ServiceClient], setup: Setup, slots: BookingSlots, for duration: Duration) async -> Round {
        let start = ContinuousClock.now
        let rounds = await withTaskGroup(of: Round.self) { group in
            for index in clients.indices {
                group.addTask(executorPreference: loop) {
                    var round = Round()
                    var step = index * 3
                    while ContinuousClock.now - start < duration {
                        let kind = Self.schedule[step % Self.schedule.count]
                        step += 1
                        let began = monotonicNanoseconds()
                        do {
                            try await call(kind, client: clients[index], patient: index, setup: setup, slots: slots)
                            round.latencies[kind, default: []].append(Double(monotonicNanoseconds() - began) / 1000)
                        } catch {
                            round.failures[kind, default: 0] += 1
                        }
                    }
                    return round
                }
            }
            return await group.reduce(into: Round()) { total, one in
                for (kind, values) in one.latencies { total.latencies[kind, default: []] += values }
                for (kind, count) in one.failures { total.failures[kind, default: 0] += count }
            }
        }
        var result = rounds
        result.seconds = (ContinuousClock.now - start).seconds
        return result
    }

    /// One request of `kind` as patient `patient`.
    private func call(_ kind: Kind, client: ServiceClient, patient: Int, setup: Setup, slots: BookingSlots) async throws {
        let token = setup.tokens[patient]
        switch kind {
        case .search:
            _ = try await client.call(Clinics.search, .init(name: "bench"))
        case .nearest:
            _ = try await client.call(Clinics.nearest, .init(latitude: 51.5, longitude: -0.12))
        case .inbox:
            _ = try await client.call(Notifications.inbox, .init(token: token, limit: 20))
        case .history:
            _ = try await client.call(Records.history, .init(token: token, limit: 20))
        case .book:
            let slot = slots.take()
            _ = try await client.call(
                Appointments.book,
                .init(
                    token: token, clinicID: setup.clinicID, service: .gp, startsAt: slot.startsAt,
                    durationMinutes: BookingSlots.minutes, reason: "mixed load", requestID: "mixed-\(slot.number)"))
        case .login:
            _ = try await client.call(
                Identity.login, .init(email: "patient\(patient)@example.org", password: Setup.password))
        }
    }
}
