import Foundation
import GRDB
import Glibc
import Testing
import VerticalsSharedTesting
import VerticalsTesting

extension EngineProcessTests {
    /// `svc-supervisor restore NAME --from-replica` on a suite `svc-supervisor up` runs, with the
    /// real Litestream and a folder replica: a host that lost its store gets its rows back from the
    /// replica, and what cannot be restored is refused, saying why, before anything stops.
    @Suite("svc-supervisor restore --from-replica", .blocking, .timeLimit(.minutes(3)))
    struct RestoreFromReplicaCLI {
        typealias Replica = EngineProcessTests.Replica

        /// A manifest of `ledger`, replicated to the folder `replica`, and `plain`, with a store
        /// and no replica.
        static func manifest(replicatedTo replica: String) -> String {
            """
            [services.ledger]
            executable = "vt-testd"
            args = ["ledger"]
            env = { VT_TESTD_MIGRATIONS = "1" }
            replica = { type = "folder", path = "\(replica)", sync_interval = "200ms" }
            [services.plain]
            executable = "vt-testd"
            args = ["plain"]
            env = { VT_TESTD_MIGRATIONS = "1" }
            """
        }

        /// A supervisor on `manifest` in the run directory `run`, as a host of its own.
        final class Host {
            let run: String
            let directory: TemporaryDirectory
            let environment: [String: String]
            let up: DaemonProcess
            let tag = "from-replica-\(UInt32.random(in: 0...UInt32.max))"

            init(manifest: String, run: String, litestream: String, in directory: TemporaryDirectory) throws {
                self.run = run
                self.directory = directory
                environment = ["VERTICALS_POINTER_DIR": directory.file("pointer"), "VERTICALS_LITESTREAM": litestream]
                up = try DaemonProcess(
                    "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run],
                    environment: environment.merging(["VT_DAEMON_TAG": tag]) { $1 })
            }

            /// Runs `svc-supervisor ARGUMENTS --run-dir RUN`.
            func cli(_ arguments: [String]) throws -> CommandResult {
                try runCommand(
                    "svc-supervisor", arguments + ["--run-dir", run], environment: environment, in: directory,
                    timeout: .seconds(120))
            }

            /// `service`'s state and its replica's, from `status --json`, or nil.
            func states(_ service: String) -> (state: String, replica: String?)? {
                guard let result = try? cli(["status", "--json"]), result.status == 0,
                    let object = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)),
                    let services = (object as? [String: Any])?["services"] as? [[String: Any]],
                    let entry = services.first(where: { $0["name"] as? String == service }),
                    let state = entry["state"] as? String
                else { return nil }
                return (state, (entry["replica"] as? [String: Any])?["state"] as? String)
            }

            /// The store of `service`.
            func store(_ service: String) -> String { "\(run)/state/\(service)/\(service).sqlite" }

            /// Takes the suite down, and kills whatever of it is left.
            func down() {
                _ = try? cli(["down"])
                _ = up.waitForExit()
                up.stop()
                for pid in EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG") { kill(pid, SIGKILL) }
            }
        }

        /// Inserts `count` rows into `v1` of the store at `store`, then waits until the folder
        /// `replica` holds a level-0 file it did not hold before: the write is replicated.
        static func writeReplicated(_ count: Int, to store: String, replica: String) throws {
            let before = ReplicaRestore.shipped(in: replica)
            let pool = try DatabasePool(path: store)
            try pool.write { db in
                for _ in 0..<count { try db.execute(sql: "INSERT INTO v1 DEFAULT VALUES") }
            }
            try pool.close()
            #expect(
                eventually(timeout: .seconds(60)) { !ReplicaRestore.shipped(in: replica).subtracting(before).isEmpty },
                "the rows never reached the replica")
        }

        /// Now in RFC 3339, with a fraction, at `offset` seconds east of UTC: the supervisor takes
        /// any offset.
        static func now(inZone offset: Int) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            return formatter.string(from: Date())
        }

        /// The rows of `v1` in the store at `store`.
        static func rows(in store: String) throws -> Int {
            let queue = try DatabaseQueue(path: store)
            defer { try? queue.close() }
            return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM v1") ?? -1 }
        }

        @Test(Replica.needsLitestream)
        func restoreFromReplica_onANewHost_bringsBackTheRows_andRefusesWhatItCannotDo() throws {
            let litestream = try #require(Replica.litestream)
            let directory = TemporaryDirectory()
            let replica = directory.file("replica")
            let manifest = directory.file("suite.toml")
            writeText(Self.manifest(replicatedTo: replica), to: manifest)

            let first = try Host(manifest: manifest, run: directory.file("a"), litestream: litestream, in: directory)
            defer { first.down() }
            #expect(eventually(timeout: .seconds(60)) { first.states("ledger")?.replica == "running" })
            #expect(eventually { first.states("plain")?.state == "ready" })
            // Its first level-0 file is the store before any write: a later one holds the writes.
            #expect(eventually(timeout: .seconds(60)) { !ReplicaRestore.shipped(in: "\(replica)/ledger").isEmpty })
            try Self.writeReplicated(3, to: first.store("ledger"), replica: "\(replica)/ledger")
            let between = Self.now(inZone: 3_600)
            try Self.writeReplicated(2, to: first.store("ledger"), replica: "\(replica)/ledger")

            let unreplicated = try first.cli(["restore", "plain", "--from-replica"])
            #expect(unreplicated.status == 65, "\(unreplicated.standardError)")
            #expect(unreplicated.standardError.contains("plain has no replica"), "\(unreplicated.standardError)")
            #expect(first.states("plain")?.state == "ready", "a service without a replica keeps running")
            let running = try first.cli(["restore", "ledger", "--from-replica"])
            #expect(running.status == 75, "\(running.standardError)")
            #expect(first.states("ledger")?.state == "ready")

            let badTime = try first.cli(["restore", "ledger", "--from-replica", "--at", "yesterday"])
            #expect(badTime.status == 64)
            #expect(badTime.standardError.contains("--at must be an RFC 3339 time"), "\(badTime.standardError)")
            let both = try first.cli(["restore", "ledger", directory.file("some.sqlite"), "--from-replica"])
            #expect(both.status == 64)
            #expect(both.standardError.contains("not both"), "\(both.standardError)")
            first.down()
            let lost = Self.now(inZone: 0)
            let shippedByTheLostHost = ReplicaRestore.shipped(in: "\(replica)/ledger")

            // The host is lost: a new one with the same manifest has no store, so the vertical's
            // comes back from the replica before it starts; its Litestream ships it on, after the
            // lost host's copies.
            let second = try Host(manifest: manifest, run: directory.file("b"), litestream: litestream, in: directory)
            defer { second.down() }
            #expect(
                eventually(timeout: .seconds(60)) {
                    ReplicaRestore.shipped(in: "\(replica)/ledger").count > shippedByTheLostHost.count
                }, "the new host's Litestream never shipped its store")
            let stopped = try second.cli(["stop", "ledger"])
            #expect(stopped.status == 0, "\(stopped.standardError)")
            #expect(try Self.rows(in: second.store("ledger")) == 5, "restored before its first start")

            let restored = try second.cli(["restore", "ledger", "--from-replica", "--at", lost])
            #expect(restored.status == 0, "\(restored.standardError)")
            #expect(restored.standardOutput.contains("from the replica of ledger"), "\(restored.standardOutput)")
            #expect(try Self.rows(in: second.store("ledger")) == 5, "the lost host's rows are back")
            let past = try second.cli(["restore", "ledger", "--from-replica", "--at", between])
            #expect(past.status == 0, "\(past.standardError)")
            #expect(try Self.rows(in: second.store("ledger")) == 3, "the writes after \(between) are not there")

            let started = try second.cli(["start", "ledger"])
            #expect(started.status == 0, "\(started.standardError)")
            #expect(eventually(timeout: .seconds(60)) { second.states("ledger")?.replica == "running" })
        }
    }
}
