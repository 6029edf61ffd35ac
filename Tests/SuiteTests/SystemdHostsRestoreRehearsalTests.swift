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
/// And on a host of its own, a replica that holds another vertical's store: the copy is refused,
/// the vertical alone does not start, and starts once its own replica is back.
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
        // A patient registers and books; every replica holds it.
        try await Self.afterABooking(shippedBy: Self.verticals) { host, client, booked in
            // The host loses its stores, with the suite stopped; the suite starts again.
            try Self.run(
                [
                    ["systemctl", "stop", "verticals.target"], ["sh", "-c", "rm -rf /var/lib/verticals/*"],
                    ["systemctl", "start", "verticals.target"],
                ], on: host)
            let units = Self.verticals.flatMap { ["verticals-\($0).service", "verticals-\($0)-replica.service"] }
            let active = await eventuallyAsync(timeout: .seconds(120), every: .milliseconds(200)) {
                try Self.allActive(units, on: host)
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
                let placed = await Self.journal(
                    of: unit,
                    saying: [
                        "svc-\(name) --place-replica-copy: placed the copy restored from its replica as \(store), checked"
                    ], on: host)
                #expect(
                    placed.all, "\(unit): \(placed.journal.split(separator: "\n").suffix(6).joined(separator: "\n"))")
                let owner = try host.inside("a", ["stat", "-c", "%U %a %F", store]).standardOutput
                #expect(owner == "verticals-\(name) 600 regular file\n", "\(store): \(owner)")
                let copies = try host.inside("a", ["sh", "-c", "ls /var/lib/verticals/\(name)/ | grep from-replica"])
                #expect(copies.standardOutput.isEmpty, "the copy stays beside \(store): \(copies.standardOutput)")
            }

            // What was booked before is served after: the patient logs in, the booking is listed.
            let after = try await Self.login(booked.email, through: client)
            try await Self.expectListed(booked.booking, token: after, slot: booked.slot, client: client)

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
            try await Self.expectListed(booked.booking, token: after, slot: booked.slot, client: client)
            print("systemd restore rehearsal: boot \(host.bootTime), all \(ContinuousClock.now - started)")
        }
    }

    /// A replica whose newest copy is another vertical's store, as when the disk that holds the
    /// replicas is put back from the wrong folder: appointments' replica holds clinics' files.
    /// With appointments' store lost and the suite started, its restore unit fails on
    /// `--place-replica-copy`'s refusal, and says so; neither a store nor the copy is left where
    /// the store goes (the copy is kept aside), appointments does not start (it requires its
    /// restore unit) and every other vertical does. With its own replica back, `systemctl start`
    /// of the vertical restores it and serves what was booked.
    @Test func aReplicaHoldingAnotherVerticalsStore_failsTheRestoreUnit_andTheVerticalStartsOnceItsOwnIsBack()
        async throws
    {
        let started = ContinuousClock.now
        try await Self.afterABooking(shippedBy: ["clinics", "appointments"]) { host, client, booked in
            // With the suite stopped, appointments' replica is put aside and clinics' copied in its
            // place (given to appointments' user, as a restored disk would be), and appointments'
            // store is lost; the suite starts again.
            let (state, replica) = ("/var/lib/verticals/appointments", "\(Self.replicas)/appointments")
            try Self.run(
                [
                    ["systemctl", "stop", "verticals.target"], ["mv", replica, "\(replica).own"],
                    ["cp", "-a", "\(Self.replicas)/clinics", replica],
                    ["chown", "-R", "verticals-appointments:verticals-appointments", replica], ["rm", "-rf", state],
                    ["systemctl", "start", "verticals.target"],
                ], on: host)
            let restore = "verticals-appointments-restore.service"
            let others = ["identity", "clinics", "notifications", "records"].flatMap {
                ["verticals-\($0).service", "verticals-\($0)-replica.service"]
            }
            let settled = await eventuallyAsync(timeout: .seconds(120), every: .milliseconds(200)) {
                try Self.allActive(others, on: host)
                    && host.inside("a", ["systemctl", "is-failed", restore]).standardOutput == "failed\n"
            }
            let failed = try host.inside("a", ["systemctl", "--no-pager", "--all", "--failed"]).standardOutput
            #expect(settled, "the restore unit did not fail, or another vertical is not active: \(failed)")

            // The restore unit failed on the check: Litestream restored the copy, and the vertical's
            // own program refused it (78: starting again cannot help), saying why.
            let result = try host.inside("a", ["systemctl", "show", "-p", "Result,ExecMainStatus", restore])
            #expect(
                Set(result.standardOutput.split(separator: "\n")) == ["Result=exit-code", "ExecMainStatus=78"],
                "\(restore): \(result.standardOutput)")
            let refused = "\(state)/appointments.from-replica.refused.sqlite"
            let refusal = [
                "svc-appointments --place-replica-copy: the copy of the store restored from its replica failed the checks of a restore",
                "\(state)/appointments.from-replica.sqlite is clinics's store, not appointments's",
                "it is kept as \(refused), and no store was placed",
            ]
            let said = await Self.journal(of: restore, saying: refusal, on: host)
            #expect(said.all, "\(restore) does not say why, in the words of the refusal: \(said.journal.suffix(1_500))")

            // Where the store goes: no store, no copy; the refused copy kept aside, the vertical's own.
            let files = try host.inside("a", ["ls", "-A", state]).standardOutput.split(separator: "\n")
            let inPlace = files.filter {
                for name in ["appointments.sqlite", "appointments.from-replica.sqlite"] {
                    if $0 == name || $0.hasPrefix(name + "-") { return true }
                }
                return false
            }
            #expect(inPlace.isEmpty, "in \(state): \(files)")
            let kept = try host.inside("a", ["stat", "-c", "%U %a %F", refused]).standardOutput
            #expect(kept == "verticals-appointments 600 regular file\n", "\(refused): \(kept)")

            // The vertical did not start: its start job failed for its dependency; nor did its Litestream.
            let vertical = "verticals-appointments.service"
            let down = try host.inside(
                "a", ["systemctl", "is-active", vertical, "verticals-appointments-replica.service"]
            ).standardOutput
            #expect(!down.split(separator: "\n").contains("active"), "\(down)")
            #expect(try host.mainPID("appointments", on: "a") == 0)
            let dependency = await Self.journal(
                of: vertical, saying: ["Job \(vertical)/start failed with result 'dependency'"], on: host)
            #expect(
                dependency.all,
                "\(vertical)'s journal says nothing of its failed restore: \(dependency.journal.suffix(800))")

            // The rest of the suite serves: the patient logs in, clinics answers.
            let token = try await Self.login(booked.email, through: client)
            let nearest = try await client.call(
                Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 1, service: .gp))
            #expect(!nearest.clinics.isEmpty)

            // The operator's way out: its own replica back, `systemctl start` of the vertical runs the
            // restore again, which places its store; the vertical and its Litestream start, and serve
            // what was booked.
            try Self.run(
                [["rm", "-rf", replica], ["mv", "\(replica).own", replica], ["systemctl", "start", vertical]], on: host)
            let again = try host.inside("a", ["systemctl", "show", "-p", "Result,ExecMainStatus", restore])
            #expect(
                Set(again.standardOutput.split(separator: "\n")) == ["Result=success", "ExecMainStatus=0"],
                "\(restore): \(again.standardOutput)")
            let placed = await Self.journal(
                of: restore,
                saying: [
                    "svc-appointments --place-replica-copy: placed the copy restored from its replica as \(state)/appointments.sqlite, checked"
                ], on: host)
            #expect(placed.all, "\(restore): \(placed.journal.suffix(800))")
            let up = await eventuallyAsync(timeout: .seconds(60), every: .milliseconds(200)) {
                try Self.allActive([vertical, "verticals-appointments-replica.service"], on: host)
            }
            #expect(up, "appointments or its Litestream is not active once its replica is back")
            try await Self.expectListed(booked.booking, token: token, slot: booked.slot, client: client)
            print("systemd refused-restore rehearsal: boot \(host.bootTime), all \(ContinuousClock.now - started)")
        }
    }

    /// Boots the replicating host (``bootReplicating(in:)``); a patient books through a client at
    /// its sockets (``book(through:)``) and the replicas of `names` hold it
    /// (``expectShipped(_:by:on:in:)``); then `body`. The host is powered off after.
    static func afterABooking(
        shippedBy names: [String], _ body: (SystemdHosts, ServiceClient, Booked) async throws -> Void
    ) async throws {
        let directory = TemporaryDirectory()
        let host = try await bootReplicating(in: directory)
        defer { host.down() }
        let loop = try EventLoop(name: "restore-rehearsal")
        defer { loop.shutdown() }
        let client = host.socketClient(loop: loop)
        defer { client.close() }
        let booked = try await book(through: client)
        await expectShipped(booked, by: names, on: host, in: directory)
        try await body(host, client, booked)
    }

    /// The reference suite (`deploy/suite.toml`) with every store replicated to a folder of
    /// ``replicas`` (`[defaults]`' replica, synced each second), booted on one host.
    static func bootReplicating(in directory: TemporaryDirectory) async throws -> SystemdHosts {
        let manifest = directory.file("suite.toml")
        let reference = try #require(readFile("\(NewCommandTests.repositoryRoot)/deploy/suite.toml"))
        let replica = #"replica = { type = "folder", path = "\#(Self.replicas)", sync_interval = "1s" }"#
        #expect(reference.contains("\n[defaults]\n"))
        try reference.replacingOccurrences(of: "\n[defaults]\n", with: "\n[defaults]\n\(replica)\n")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        return try await SystemdHosts.boot(oneHost: true, manifest: manifest)
    }

    /// What a patient booked: their email, the booking's id, and its slot.
    struct Booked {
        let email: String
        let booking: String
        let slot: Timestamp
    }

    /// A new patient registers and books one slot at a clinic near London.
    static func book(through client: ServiceClient) async throws -> Booked {
        let email = "restored-\(UInt32.random(in: 0...UInt32.max))@example.org"
        _ = try await retrying {
            try await client.call(
                Identity.register,
                .init(email: email, password: "correct-horse-battery", displayName: "restored"),
                timeout: SupervisedSuite.setUpTimeout)
        }
        let patient = try await login(email, through: client)
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
        return Booked(email: email, booking: booking.id, slot: slot)
    }

    /// Waits until the replica of each of `names` holds its store, identity's the patient and
    /// appointments' the booking: each read back with `litestream restore` from the replica's
    /// folder into a scratch file.
    static func expectShipped(
        _ booked: Booked, by names: [String], on host: SystemdHosts, in directory: TemporaryDirectory
    ) async {
        let root = "/proc/\(host.leaders["a"] ?? 0)/root"
        let shipped: [String: String] = [
            "identity": "SELECT COUNT(*) FROM users WHERE email = '\(booked.email)'",
            "appointments": "SELECT COUNT(*) FROM bookings WHERE id = '\(booked.booking)'",
        ]
        for name in names {
            let query = shipped[name] ?? "SELECT COUNT(*) FROM sqlite_master"
            let held = await eventuallyAsync(timeout: .seconds(60), every: .milliseconds(200)) {
                try replicaCount(root + "\(replicas)/\(name)", query, in: directory) > 0
            }
            #expect(held, "\(name)'s replica never held \(shipped[name] == nil ? "a store" : "what was booked")")
        }
    }

    /// Runs each of `commands` in turn inside the host, as root; each must succeed.
    static func run(_ commands: [[String]], on host: SystemdHosts) throws {
        for command in commands {
            let result = try host.inside("a", command)
            #expect(result.status == 0, "\(command): \(result)")
        }
    }

    /// Whether every one of `units` is active in the host. (`systemctl is-active` of several units
    /// succeeds when any one is: each one's state is read instead.)
    static func allActive(_ units: [String], on host: SystemdHosts) throws -> Bool {
        try host.inside("a", ["systemctl", "is-active"] + units).standardOutput
            .split(separator: "\n").allSatisfy { $0 == "active" }
    }

    /// What `unit` logged in the host's journal, its lines without metadata.
    static func journal(of unit: String, on host: SystemdHosts) throws -> String {
        try host.inside("a", ["journalctl", "--no-pager", "-o", "cat", "-u", unit]).standardOutput
    }

    /// Waits until `unit`'s journal holds each of `words`; whether it did, and the unit's journal
    /// as last read. journald may take a unit's lines after its state changed, and may not tie
    /// the last lines of a process that exited at once to its unit, so the boot's whole journal
    /// is read as well: the words a test waits for name the program and the path they are about.
    static func journal(
        of unit: String, saying words: [String], on host: SystemdHosts
    ) async -> (all: Bool, journal: String) {
        var journal = ""
        let all = await eventuallyAsync(timeout: .seconds(60), every: .milliseconds(200)) {
            journal = try Self.journal(of: unit, on: host)
            if words.allSatisfy({ journal.contains($0) }) { return true }
            let boot = try host.inside("a", ["journalctl", "--no-pager", "-o", "cat", "-b"]).standardOutput
            return words.allSatisfy { boot.contains($0) }
        }
        return (all, journal)
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
