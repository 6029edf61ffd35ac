import Foundation
import IOInterface
import Synchronization
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// Section "mixed": the whole suite under the mix a clinic network sees, so the
/// next bottleneck shows: 16 patients, each on its own connections, calling in turn searches,
/// nearest clinics, inbox reads, histories, bookings and logins (the ``schedule``), for a slice
/// per round. Reported per operation (p50/p99), in total (requests a second), and per daemon
/// (CPU per request of the mix: the daemon's user + system time over the slice, divided by the
/// requests the clients completed, so a daemon many operations pass through shows its share).
/// There is no baseline for those: this is where the suite stands, for the next change to compare with.
///
/// Beside it, whether anything waits for a login (a password hash, by design the dearest
/// request). The mix's own logins cannot say: a client waiting for its login sends nothing else,
/// so logins lower the load beside them. Instead the 16 clients run the cycle without its login,
/// once alone and once beside a login sent back to back on each processor (a hash always running
/// on every one), interleaved round by round: each operation's p99 beside the logins against
/// alone (target ≤ 1.2×). And identity's `authenticate` p99 while a burst of 50 logins is served,
/// against as long a window without one (target ≤ 2×). Every login of those rows must succeed:
/// a refused or failed one fails the row.
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
        while left.contains(where: { $0.1 > 0 }) { // interleaved: s n i h b l s n i h …
            for index in left.indices where left[index].1 > 0 {
                cycle.append(left[index].0)
                left[index].1 -= 1
            }
        }
        return cycle
    }()

    /// The same cycle less its login: what runs beside the logins, and alone.
    static let scheduleWithoutLogins = schedule.filter { $0 != .login }
    /// Logins sent back to back beside the cycle: one per processor, so that a hash always runs on each.
    static let loginLoops = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// What one round gave: latencies (µs) by kind, failures by kind, and the window's length.
    struct Round {
        var latencies: [Kind: [Double]] = [:]
        var failures: [Kind: Int] = [:]
        var seconds: Double = 0
        var requests: Int { latencies.values.reduce(0) { $0 + $1.count } }

        /// Adds `other`'s latencies and failures.
        mutating func merge(_ other: Round) {
            for (kind, values) in other.latencies { latencies[kind, default: []] += values }
            for (kind, count) in other.failures { failures[kind, default: 0] += count }
        }
    }

    func run(_ suite: SupervisedSuite, setup: Setup, slots: BookingSlots) async {
        precondition(setup.tokens.count >= Self.clients, "the mix needs \(Self.clients) patients")
        let clients = (0..<Self.clients).map { _ in
            ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        }
        defer { for client in clients { client.close() } }
        let pids = await suite.pids()
        let names = pids.keys.sorted()
        _ = await mix(clients: clients, setup: setup, slots: slots, for: .milliseconds(500)) // connections, caches
        var rounds: [Round] = []
        var besideLogins: [Round] = []
        var alone: [Round] = []
        var loginsBeside: [Round] = []
        var cpuPerRequest: [String: [Double]] = [:]
        for round in 1...settings.rounds {
            progress("mixed round \(round)/\(settings.rounds)")
            // Interleaved, the first of the pair alternating: neither variant always follows the other.
            for beside in round % 2 == 0 ? [true, false] : [false, true] {
                let logins = (0..<(beside ? Self.loginLoops : 0)).map { _ in
                    ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(60))
                }
                let result = await mix(
                    clients: clients, setup: setup, slots: slots, for: slice, Self.scheduleWithoutLogins,
                    loginClients: logins)
                for client in logins { client.close() }
                if beside {
                    besideLogins.append(result.cycle)
                    loginsBeside.append(result.logins)
                } else {
                    alone.append(result.cycle)
                }
            }
            let before = pids.mapValues { ProcessStats.cpuSeconds($0) ?? 0 }
            let result = await mix(clients: clients, setup: setup, slots: slots, for: slice).cycle
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
        let failedLogins = loginsBeside.reduce(0) { $0 + ($1.failures[.login] ?? 0) }
        for kind in Kind.allCases where kind != .login {
            let with = besideLogins.map { SuiteBenchmark.percentile($0.latencies[kind] ?? [], 99) / 1000 }
            let without = alone.map { SuiteBenchmark.percentile($0.latencies[kind] ?? [], 99) / 1000 }
            report.add(
                "mixed", "\(kind.rawValue) p99 beside \(Self.loginLoops) login loops", unit: "ms", ours: with,
                baselineName: "alone", baseline: without, ratioName: "beside/alone", target: .atMost(1.2),
                failed: failedLogins > 0 ? "\(failedLogins) of the logins beside it failed" : nil)
        }
        report.add(
            "mixed", "  identity.login beside the cycle, p50", unit: "ms",
            Summary(loginsBeside.map { SuiteBenchmark.percentile($0.latencies[.login] ?? [], 50) / 1000 }))
        await loginBurst(suite: suite, setup: setup)
    }

    /// The logins of one burst.
    static let burstLogins = 50
    /// Calls to `authenticate` kept in flight while it is timed.
    static let authenticating = 4

    /// `authenticate`'s latencies while ``burstLogins`` logins are served at once, against the
    /// same length of time without them, interleaved round by round.
    func loginBurst(suite: SupervisedSuite, setup: Setup) async {
        let client = ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(60))
        defer { client.close() }
        var during: [Double] = []
        var quiet: [Double] = []
        var burstMilliseconds: [Double] = []
        var failedLogins = 0
        _ = await authenticate(client, token: setup.tokens[0], for: .milliseconds(200)) // connection, cache
        // The quiet window takes the burst's length, so each round's burst leads and its quiet
        // window follows: the next burst follows a quiet window all the same.
        for round in 1...settings.rounds {
            progress("login burst round \(round)/\(settings.rounds)")
            let stop = StopFlag()
            let start = ContinuousClock.now
            async let timed = authenticate(client, token: setup.tokens[0], until: { stop.isSet })
            let failed = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<Self.burstLogins {
                    let patient = index % Self.clients
                    group.addTask(executorPreference: loop) {
                        let login = Identity.LoginInput(
                            email: "patient\(patient)@example.org", password: Setup.password)
                        return (try? await client.call(Identity.login, login)) == nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let window = ContinuousClock.now - start
            stop.set()
            during.append(SuiteBenchmark.percentile(await timed, 99) / 1000)
            failedLogins += failed
            burstMilliseconds.append(window.seconds * 1000)
            let calm = await authenticate(client, token: setup.tokens[0], for: window)
            quiet.append(SuiteBenchmark.percentile(calm, 99) / 1000)
        }
        report.add(
            "mixed", "identity.authenticate p99, \(Self.burstLogins) logins at once", unit: "ms", ours: during,
            baselineName: "without", baseline: quiet, ratioName: "burst/without", target: .atMost(2),
            failed: failedLogins > 0 ? "\(failedLogins) of the burst's logins failed" : nil)
        report.add(
            "mixed", "  \(Self.burstLogins) logins at once: first sent → last answered", unit: "ms",
            Summary(burstMilliseconds))
    }

    /// `authenticate` latencies (µs), ``authenticating`` calls in flight, for `duration`.
    func authenticate(_ client: ServiceClient, token: String, for duration: Duration) async -> [Double] {
        let start = ContinuousClock.now
        return await authenticate(client, token: token, until: { ContinuousClock.now - start >= duration })
    }

    /// `authenticate` latencies (µs), ``authenticating`` calls in flight, until `done` says so.
    func authenticate(_ client: ServiceClient, token: String, until done: @escaping @Sendable () -> Bool) async
        -> [Double]
    {
        await withTaskGroup(of: [Double].self) { group in
            for _ in 0..<Self.authenticating {
                group.addTask(executorPreference: loop) {
                    var latencies: [Double] = []
                    while !done() {
                        let began = monotonicNanoseconds()
                        guard (try? await client.call(Identity.authenticate, .init(token: token))) != nil else {
                            fail("identity.authenticate failed while timed")
                        }
                        latencies.append(Double(monotonicNanoseconds() - began) / 1000)
                    }
                    return latencies
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// Each of `clients` calls `schedule` in a loop for `duration`; each of `loginClients` logs in
    /// back to back meanwhile. The cycle's round and the logins' apart.
    func mix(
        clients: [ServiceClient], setup: Setup, slots: BookingSlots, for duration: Duration,
        _ schedule: [Kind] = MixedLoad.schedule, loginClients: [ServiceClient] = []
    ) async -> (cycle: Round, logins: Round) {
        let start = ContinuousClock.now
        // No task at all when nothing logs in: the cycle alone shares its loop with nothing.
        let logins =
            loginClients.isEmpty
            ? nil
            : Task(executorPreference: loop) {
                await withTaskGroup(of: Round.self) { group in
                    for (index, client) in loginClients.enumerated() {
                        group.addTask(executorPreference: loop) {
                            var round = Round()
                            while ContinuousClock.now - start < duration {
                                let began = monotonicNanoseconds()
                                do {
                                    try await call(
                                        .login, client: client, patient: index % Self.clients, setup: setup,
                                        slots: slots)
                                    round.latencies[.login, default: []].append(
                                        Double(monotonicNanoseconds() - began) / 1000)
                                } catch {
                                    round.failures[.login, default: 0] += 1
                                }
                            }
                            return round
                        }
                    }
                    return await group.reduce(into: Round()) { $0.merge($1) }
                }
            }
        let rounds = await withTaskGroup(of: Round.self) { group in
            for index in clients.indices {
                group.addTask(executorPreference: loop) {
                    var round = Round()
                    var step = index * 3
                    while ContinuousClock.now - start < duration {
                        let kind = schedule[step % schedule.count]
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
            return await group.reduce(into: Round()) { $0.merge($1) }
        }
        var result = rounds
        result.seconds = (ContinuousClock.now - start).seconds
        return (result, await logins?.value ?? Round())
    }

    /// One request of `kind` as patient `patient`.
    private func call(_ kind: Kind, client: ServiceClient, patient: Int, setup: Setup, slots: BookingSlots) async throws
    {
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

/// A flag one task sets and others read.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
