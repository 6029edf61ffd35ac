import Foundation
import GRDB
import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsTesting
import VerticalsWire

/// The exported replica units under a real systemd (``SystemdHosts``, one host): every store of
/// `deploy/suite.toml` replicated to a folder by its `verticals-NAME-replica.service`; the stores
/// lost with the suite stopped; `verticals.target` started again, each
/// `verticals-NAME-restore.service` brings its store back (`litestream restore`, then
/// `svc-NAME --place-replica-copy`) before its vertical starts, and what was booked before is
/// served after. Then a store that is there: its restore unit is skipped and the vertical starts.
///
/// As root `make test` runs it, and `make systemd-rehearsal`; elsewhere, or without `litestream`
/// on PATH (scripts/install-deps.sh --test installs it), it is skipped, saying why.
@Suite(
    .blocking,
    .serialized, .timeLimit(.minutes(25)),
    .enabled(
        if: SystemdHosts.restoreUnavailableReason == nil,
        "replica restore under systemd: \(SystemdHosts.restoreUnavailableReason ?? "")"))
struct SystemdHostsRestoreRehearsalTests {
    /// The replicas' folder inside the host: outside every state folder, root's (systemd-hosts.sh makes it).
    static let replicas = "/var/lib/verticals-replica"
    static let verticals = ["identity", "clinics", "notifications", "records", "appointments"]

    @Test func lostStores_comeBackFromTheirFolderReplicas_beforeTheVerticalsStart_andAStoreThereSkipsTheRestore()
        async throws
    {
        let started = ContinuousClock.now
        let directory = TemporaryDirectory()
        let manifest = directory.file("suite.toml")
        let reference = try #require(readFile("\(NewCommandTests.repositoryRoot)/deploy/suite.toml"))
        let replica = #"replica = { type = "folder", path = "\#(Self.replicas)", sync_interval = "1s" }"#
        #expect(reference.contains("\n[defaults]\n"))
        try reference.replacingOccurrences(of: "\n[defaults]\n", with: "\n[defaults]\n\(replica)\n")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let host = try await SystemdHosts.boot(oneHost: true, manifest: manifest)
        defer { host.down() }
        let root = "/proc/\(host.leaders["a"] ?? 0)/root"

        // A patient registers and books.
        let loop = try EventLoop(name: "restore-rehearsal")
        defer { loop.shutdown() }
        let client = host.socketClient(loop: loop)
        defer { client.close() }
        let email = "restored-\(UInt32.random(in: 0...UInt32.max))@example.org"
        _ = try await retrying {
            try await client.call(
                Identity.register,
                .init(email: email, password: "correct-horse-battery", displayName: "restored"),
                timeout: SupervisedSuite.setUpTimeout)
        }
        let patient = try await Self.login(email, through: client)
        let clinics = try await retrying {
            try await client.call(Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 5, service: .gp))
        }
        let clinic = try #require(clinics.clinics.first?.clinic.id, "no clinic near London")
        let slot = try #require(
            await BookingLedger.openSlots(client, clinic: clinic, fromDay: 2, count: 1).first, "no open slot")
        let booking = try await retrying {
            try await client.call(
                Appointments.book,
                .init(
                    token: patient, clinicID: clinic, service: .gp, startsAt: slot, durationMinutes: 20,
                    reason: "before the stores were lost", requestID: "restore-1"))
        }

        // Each replica holds a store, identity's the patient and appointments' the booking: each
        // read back with `litestream restore` from the replica's folder into a scratch file.
        let shipped: [String: String] = [
            "identity": "SELECT COUNT(*) FROM users WHERE email = '\(email)'",
            "appointments": "SELECT COUNT(*) FROM bookings WHERE id = '\(booking.id)'",
        ]
        for name in Self.verticals {
            let query = shipped[name] ?? "SELECT COUNT(*) FROM sqlite_master"
            let held = await eventuallyAsync(timeout: .seconds(60), every: .milliseconds(200)) {
                try Self.replicaCount(root + "\(Self.replicas)/\(name)", query, in: directory) > 0
            }
            #expect(held, "\(name)'s replica never held \(shipped[name] == nil ? "a store" : "what was booked")")
        }

        // The host loses its stores, with the suite stopped; the suite starts again.
        for command in [
            ["systemctl", "stop", "verticals.target"], ["sh", "-c", "rm -rf /var/lib/verticals/*"],
            ["systemctl", "start", "verticals.target"],
        ] {
            let result = try host.inside("a", command)
            #expect(result.status == 0, "\(command): \(result)")
        }
        let units = Self.verticals.flatMap { ["verticals-\($0).service", "verticals-\($0)-replica.service"] }
        let active = await eventuallyAsync(timeout: .seconds(120), every: .milliseconds(200)) {
            try host.inside("a", ["systemctl", "is-active"] + units).standardOutput
                .split(separator: "\n").allSatisfy { $0 == "active" }
        }
        let failed = active ? "" : try host.inside("a", ["systemctl", "--no-pager", "--failed"]).standardOutput
        #expect(active, "not every vertical and Litestream unit is active again: \(failed)")

        // Each restore unit ran, and placed its store from the replica, checked, owner-only.
        for name in Self.verticals {
            let unit = "verticals-\(name)-restore.service"
            let state = try host.inside(
                "a", ["systemctl", "show", "-p", "ConditionResult,Result,ExecMainStatus", unit]
            ).standardOutput
            #expect(
                Set(state.split(separator: "\n")) == ["ConditionResult=yes", "Result=success", "ExecMainStatus=0"],
                "\(unit): \(state)")
            let store = "/var/lib/verticals/\(name)/\(name).sqlite"
            let journal = try host.inside("a", ["journalctl", "--no-pager", "-o", "cat", "-u", unit]).standardOutput
            #expect(
                journal.contains(
                    "svc-\(name) --place-replica-copy: placed the copy restored from its replica as \(store), checked"),
                "\(unit): \(journal.split(separator: "\n").suffix(6).joined(separator: "\n"))")
            let owner = try host.inside("a", ["stat", "-c", "%U %a %F", store]).standardOutput
            #expect(owner == "verticals-\(name) 600 regular file\n", "\(store): \(owner)")
            let copies = try host.inside("a", ["sh", "-c", "ls /var/lib/verticals/\(name)/ | grep from-replica"])
            #expect(copies.standardOutput.isEmpty, "the copy stays beside \(store): \(copies.standardOutput)")
        }

        // What was booked before is served after: the patient logs in, the booking is listed.
        let after = try await Self.login(email, through: client)
        try await Self.expectListed(booking.id, token: after, slot: slot, client: client)

        // A store that is there: its restore unit is skipped (ConditionPathExists=!), the replica
        // not reached, and the vertical that requires it starts all the same.
        let restart = try host.inside("a", ["systemctl", "restart", "verticals-appointments.service"])
        #expect(restart.status == 0, "\(restart)")
        let skipped = try host.inside(
            "a",
            ["systemctl", "show", "-p", "ConditionResult,Result", "verticals-appointments-restore.service"]
        ).standardOutput
        #expect(Set(skipped.split(separator: "\n")) == ["ConditionResult=no", "Result=success"], "\(skipped)")
        let restarted = try host.inside("a", ["systemctl", "is-active", "verticals-appointments.service"])
        #expect(restarted.standardOutput == "active\n", "\(restarted)")
        try await Self.expectListed(booking.id, token: after, slot: slot, client: client)
        print("systemd restore rehearsal: boot \(host.bootTime), all \(ContinuousClock.now - started)")
    }

    /// Logs `email` in; returns the session token.
    static func login(_ email: String, through client: ServiceClient) async throws -> String {
        try await retrying {
            try await client.call(
                Identity.login, .init(email: email, password: "correct-horse-battery"),
                timeout: SupervisedSuite.setUpTimeout)
        }.token
    }

    /// The patient's bookings around `slot` are `id` alone.
    static func expectListed(_ id: String, token: String, slot: Timestamp, client: ServiceClient) async throws {
        let listed = try await retrying {
            try await client.call(
                Appointments.list,
                .init(token: token, from: slot.adding(.seconds(-3_600)), to: slot.adding(.seconds(3_600))))
        }
        #expect(listed.appointments.map(\.id) == [id], "\(listed.appointments)")
    }

    /// `query`'s count in the store that the replica in `folder` restores to now; 0 when it restores none.
    static func replicaCount(_ folder: String, _ query: String, in directory: TemporaryDirectory) throws -> Int {
        let scratch = directory.file("scratch-\(UInt32.random(in: 0...UInt32.max)).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { unlink(scratch + suffix) } }
        let restore = try runCommand(
            LostHostTools.litestream ?? "litestream", ["restore", "-o", scratch, "file://\(folder)"], in: directory)
        guard restore.status == 0, access(scratch, F_OK) == 0 else { return 0 }
        var configuration = Configuration()
        configuration.readonly = true
        let store = try DatabaseQueue(path: scratch, configuration: configuration)
        defer { try? store.close() }
        return try store.read { try Int.fetchOne($0, sql: query) } ?? 0
    }
}

extension SystemdHosts {
    /// Why the replica restore cannot be rehearsed here, or nil: the hosts, and Litestream to copy into them.
    static var restoreUnavailableReason: String? {
        if let reason = unavailableReason { return reason }
        if LostHostTools.litestream == nil {
            return "no litestream on PATH (scripts/install-deps.sh --test installs it)"
        }
        return nil
    }
}
