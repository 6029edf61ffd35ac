import Foundation
import IOInterface
import Synchronization
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// `make soak-versions`: the reference suite deployed one vertical at a time between two builds
/// under mixed load (booking, login, search, records, inbox). The new build is derived from this
/// checkout by `scripts/soak-versions-derive.py` (an optional field in one Input of every vertical,
/// a store migration in notifications and records) and built in a copy; `VT_SOAK_VERSIONS_NEW`
/// names its bin folder, `VT_SOAK_VERSIONS_BREAKING` a clinics whose `checkSlot` Input requires a
/// field appointments never sends. The callers go first, then the callees, then the callers back,
/// then the callees whose store was not migrated: every old/new pair meets. The migrated ones are
/// tried back and must refuse their store and take no traffic; the breaking clinics must be
/// refused by `can-i-deploy` and `upgrade`. Prints calls made and failed, writes lost, p99 during
/// the upgrades against the rest, and every pair that met. Not part of `make test`, which runs
/// the same steps on vt-testd (`MixedVersionTests`).
@Suite(.blocking, .serialized, .timeLimit(.minutes(60)), .enabled(if: soakVersionsAsked, "make soak-versions runs it"))
struct MixedVersionSoakTests {
    static let manifest = """
        [defaults]
        backoff = { initial = "50ms", max = "500ms", multiplier = 2.0 }
        budget = { restarts = 1000, window = "60s" }
        stop_timeout = "5s"
        [services.identity]
        executable = "svc-identity"
        user = "nobody"
        receives = ["sessions", "first_admin", "password", "roles", "logout"]
        env = { IDENTITY_PWHASH_OPSLIMIT = "1", IDENTITY_PWHASH_MEMLIMIT = "8192" }
        [services.clinics]
        executable = "svc-clinics"
        user = "games"
        depends_on = ["identity.authenticate"]
        [services.notifications]
        executable = "svc-notifications"
        user = "man"
        depends_on = ["identity.authenticate", "identity.getUser"]
        [services.records]
        executable = "svc-records"
        user = "lp"
        depends_on = ["identity", "clinics"]
        [services.appointments]
        executable = "svc-appointments"
        user = "mail"
        depends_on = ["identity.authenticate", "clinics.checkSlot", "notifications.send"]
        env = { APPOINTMENTS_RETRY_MAX_MS = "200" }
        """

    /// What the readers did: calls, failures, and the records entries acknowledged.
    final class Reads: Sendable {
        let made = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let entries = Mutex<[String: Set<String>]>([:])
        let stopped = Atomic<Bool>(false)
    }

    /// One patient's loop of everything but booking: login, search, a records entry and the
    /// history that must hold it, the inbox. A call that fails is a failure: none may.
    static func read(_ client: ServiceClient, email: String, _ reads: Reads, pause: Duration) async {
        var index = 0
        while !reads.stopped.load(ordering: .relaxed) {
            index += 1
            do {
                let token = try await client.call(
                    Identity.login, .init(email: email, password: "correct-horse-battery"), timeout: .seconds(30)
                ).token
                _ = try await client.call(Clinics.search, .init(name: "a", limit: 5), timeout: .seconds(30))
                let entry = try await client.call(
                    Records.addEntry, .init(token: token, kind: .note, text: "soak \(index)"), timeout: .seconds(30))
                reads.entries.withLock { _ = $0[email, default: []].insert(entry.id) }
                _ = try await client.call(Records.history, .init(token: token, limit: 5), timeout: .seconds(30))
                _ = try await client.call(Notifications.inbox, .init(token: token, limit: 5), timeout: .seconds(30))
                reads.made.add(5, ordering: .relaxed)
            } catch {
                reads.failures.withLock { $0.append("\(email) round \(index): \(error)") }
            }
            try? await Task.sleep(for: pause)
        }
    }

    @Test func oneVerticalAtATime_underMixedLoad_losesNothing() async throws {
        let environment = ProcessEnvironment.current
        let newBuild = try #require(environment["VT_SOAK_VERSIONS_NEW"])
        let breaking = try #require(environment["VT_SOAK_VERSIONS_BREAKING"])
        let seconds = environment["VT_SOAK_SECONDS"].flatMap { Int($0) }.map { max(30, $0) } ?? 120
        let suite = try SupervisedSuite(
            manifest: Self.manifest, services: ["identity", "clinics", "notifications", "records", "appointments"])
        chmod(suite.directory.path, 0o755) // the new builds are described as the manifest's users
        try await suite.up()
        #expect(await suite.waitUntilAllReady(), "the suite never came up")
        let clinics = try await suite.clinicsNearLondon()
        let bookerCount = min(8, clinics.count)

        // The steps, and the load paced to last them.
        let steps: [(service: String, build: String, pair: String)] = [
            ("appointments", "new", "appointments new → identity, clinics, notifications old"),
            ("records", "new", "records new → identity, clinics old"),
            ("identity", "new", "every caller new → identity new"),
            ("clinics", "new", "appointments, records new → clinics new"),
            ("notifications", "new", "appointments new → notifications new"),
            ("appointments", "old", "appointments old → identity, clinics, notifications new"),
            ("identity", "old", "appointments old, records new → identity old"),
            ("clinics", "old", "appointments old, records new → clinics old"),
            ("records", "old", "records old (its store migrated): refused, the new build serves again"),
            ("notifications", "old", "notifications old (its store migrated): refused, the new build serves again"),
        ]
        let stretch = Duration.seconds(seconds) / (steps.count + 1)
        var bookers: [(booker: Booker, patient: String, slots: [Timestamp])] = []
        for index in 0..<bookerCount {
            let slots = await BookingLedger.openSlots(suite.client, clinic: clinics[index], fromDay: 1, count: 1_000)
            let patient = try await suite.newPatient("soak\(index)")
            let pause = max(.milliseconds(40), Duration.seconds(seconds) / max(1, slots.count))
            bookers.append(
                (
                    Booker(
                        client: suite.client, token: patient, clinic: clinics[index], slots: slots, round: index,
                        pause: pause),
                    patient, slots
                ))
        }
        let reads = Reads()
        var emails: [String] = []
        for index in 0..<4 {
            let email = "reader\(index)-\(UInt32.random(in: 0...UInt32.max))@example.org"
            _ = try await suite.client.call(
                Identity.register,
                .init(email: email, password: "correct-horse-battery", displayName: "reader \(index)"))
            emails.append(email)
        }
        let bookings = bookers.map { entry in Task { await entry.booker.run() } }
        let client = suite.client
        let readers = emails.map { email in
            Task { await Self.read(client, email: email, reads, pause: .milliseconds(100)) }
        }

        // Each upgrade's time, from `upgrade` called to answered: those that handed over, and the
        // refused ones, whose callers also wait out the previous build's new start.
        var upgrading: [ClosedRange<ContinuousClock.Instant>] = []
        var rolledBack: [ClosedRange<ContinuousClock.Instant>] = []
        var met: [String] = ["every vertical old"]
        let started = ContinuousClock.now
        try await Task.sleep(for: stretch)
        for step in steps {
            let executable =
                step.build == "new"
                ? "\(newBuild)/svc-\(step.service)" : "\(DaemonProcess.productsDirectory)/svc-\(step.service)"
            let run = suite.run
            let began = ContinuousClock.now
            let result = try await Offload.run {
                try runCommand(
                    "svc-supervisor", ["upgrade", step.service, "--executable", executable, "--run-dir", run],
                    in: TemporaryDirectory(), timeout: .seconds(300))
            }
            if step.pair.contains("refused") {
                rolledBack.append(began...ContinuousClock.now)
                #expect(result.status == 1, "\(step.pair): \(result.standardOutput)\(result.standardError)")
                #expect(result.standardError.contains("newer schema than this build knows"), "\(result.standardError)")
                #expect(result.standardError.contains("serves again"), "\(result.standardError)")
            } else {
                upgrading.append(began...ContinuousClock.now)
                #expect(result.status == 0, "\(step.pair): \(result.standardOutput)\(result.standardError)")
            }
            met.append(step.pair)
            try await Task.sleep(for: stretch)
        }

        // The breaking clinics: refused before it runs.
        let asked = try await Offload.run { [run = suite.run, manifest = suite.manifest] in
            try runCommand(
                "svc-supervisor",
                ["can-i-deploy", "clinics", "--executable", breaking, "--manifest", manifest, "--run-dir", run],
                in: TemporaryDirectory(), timeout: .seconds(120))
        }
        #expect(asked.status == 2, "can-i-deploy: \(asked.standardOutput)\(asked.standardError)")
        let refused = try await Offload.run { [run = suite.run] in
            try runCommand(
                "svc-supervisor", ["upgrade", "clinics", "--executable", breaking, "--run-dir", run],
                in: TemporaryDirectory(),
                timeout: .seconds(120))
        }
        #expect(refused.status == 2, "upgrade: \(refused.standardOutput)\(refused.standardError)")

        for entry in bookers { entry.booker.stop.set() }
        reads.stopped.store(true, ordering: .relaxed)
        var outcomes: [Booker.Outcome] = []
        for task in bookings { outcomes.append(await task.value) }
        for task in readers { await task.value }
        #expect(await suite.waitUntilAllReady())

        // Nothing lost: every booking acknowledged is stored once, every entry is in its history.
        var lost = 0
        for (entry, outcome) in zip(bookers, outcomes) {
            lost += try await BookingLedger.verify(
                suite.client, patient: entry.patient, outcome: outcome, slots: entry.slots)
        }
        for email in emails {
            let token = try await suite.client.call(
                Identity.login, .init(email: email, password: "correct-horse-battery")
            ).token
            var stored: Set<String> = []
            var cursor: String?
            repeat {
                let page = try await suite.client.call(Records.history, .init(token: token, limit: 200, cursor: cursor))
                stored.formUnion(page.entries.map(\.id))
                cursor = page.nextCursor
            } while cursor != nil
            lost += reads.entries.withLock { $0[email, default: []] }.subtracting(stored).count
        }
        let failures = outcomes.flatMap(\.failures) + reads.failures.withLock { $0 }
        let made =
            outcomes.reduce(0) { $0 + $1.acknowledged.count + $1.failures.count } + reads.made.load(ordering: .relaxed)
        #expect(failures.isEmpty, "\(failures.count) calls failed: \(failures.prefix(5))")
        #expect(lost == 0, "\(lost) writes lost")

        var during: [Duration] = []
        var duringRollBack: [Duration] = []
        var outside: [Duration] = []
        for (latency, booking) in outcomes.flatMap(\.inFlight) {
            if upgrading.contains(where: { $0.overlaps(booking) }) {
                during.append(latency)
            } else if rolledBack.contains(where: { $0.overlaps(booking) }) {
                duringRollBack.append(latency)
            } else {
                outside.append(latency)
            }
        }
        let p99During = Self.p99(during)
        let p99Outside = Self.p99(outside)
        print(
            """
            soak-versions: \(ContinuousClock.now - started) under load, \(steps.count) upgrades
              calls made: \(made) (bookings \(outcomes.reduce(0) { $0 + $1.acknowledged.count }), others \(reads.made.load(ordering: .relaxed)))
              calls failed: \(failures.count); writes lost: \(lost); booking retries: \(outcomes.reduce(0) { $0 + $1.retries })
              booking p99 during upgrades: \(p99During) ms (n=\(during.count)); during the refused ones: \(Self.p99(duringRollBack)) ms (n=\(duringRollBack.count)); otherwise: \(p99Outside) ms (n=\(outside.count))
              pairs met: \(met.joined(separator: "; "))
              breaking clinics: can-i-deploy exit \(asked.status), upgrade exit \(refused.status)
            """)
        #expect(p99During <= 2 * max(p99Outside, 1), "p99 during upgrades \(p99During) ms against \(p99Outside) ms")
        suite.down()
    }

    /// The 99th percentile in whole milliseconds (0 for none).
    static func p99(_ latencies: [Duration]) -> Int {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return 0 }
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return Int(value.components.seconds * 1000 + value.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// Whether `make soak-versions` runs the soak (it names the new build).
let soakVersionsAsked = ProcessEnvironment.current["VT_SOAK_VERSIONS_NEW"] != nil
