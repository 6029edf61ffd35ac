import Foundation
import GRDB
import Glibc
import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSharedTesting
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests {
    /// `restore --from-replica [--at]` under the engine, with the real Litestream and a folder
    /// replica: the rows written come back, a point in time leaves a later write out, and what
    /// cannot be restored is refused with its reason before anything stops.
    @Suite("replica restore", .blocking, .timeLimit(.minutes(3)))
    struct ReplicaRestore {
        typealias Replica = EngineProcessTests.Replica

        /// Inserts `count` rows into `v1` of the store at `store`, then waits until the replica
        /// folder holds a level-0 file it did not hold before: the write is replicated.
        static func writeReplicated(_ count: Int, to store: String, replica: String) async throws {
            let before = shipped(in: replica)
            let pool = try DatabasePool(path: store)
            try await pool.write { db in
                for _ in 0..<count { try db.execute(sql: "INSERT INTO v1 DEFAULT VALUES") }
            }
            try pool.close()
            try await Replica.waitUntil("the replica gets a level-0 file after the write") {
                !shipped(in: replica).subtracting(before).isEmpty
            }
        }

        /// The whole level-0 files of the replica folder `replica`: each holds the transactions
        /// one sync shipped. A file of another level (a snapshot, a compaction) says nothing of a
        /// write, and a `.tmp` file is one still being written.
        static func shipped(in replica: String) -> Set<String> {
            Replica.files(under: "\(replica)/ltx/0").filter { $0.hasSuffix(".ltx") }
        }

        /// The rows of `v1` in the store at `store`.
        static func rows(in store: String) throws -> Int {
            let queue = try DatabaseQueue(path: store)
            defer { try? queue.close() }
            return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM v1") ?? -1 }
        }

        static func now() -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: Date())
        }

        @Test(Replica.needsLitestream)
        func restoreFromReplica_bringsBackTheRows_andAtATime_leavesALaterWriteOut() async throws {
            let program = try #require(Replica.litestream)
            let replicaFolder = TemporaryDirectory()
            let harness = try await Replica.startedLedger(replicatedTo: replicaFolder.path, by: program)
            let replica = "\(replicaFolder.path)/ledger"
            // Its first level-0 file is the store before any write: a later one holds the writes.
            try await Replica.waitUntil("the replica gets its first copy") { !Self.shipped(in: replica).isEmpty }
            let store = harness.run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            try await Self.writeReplicated(3, to: store, replica: replica)
            let between = Self.now()
            try await Self.writeReplicated(2, to: store, replica: replica)

            _ = try await harness.engine.stopService("ledger")
            // The store is lost: its rows are gone before the restore.
            let empty = try DatabaseQueue(path: store)
            try await empty.write { db in try db.execute(sql: "DELETE FROM v1") }
            try empty.close()

            let latest = try await harness.engine.restoreStoreFromReplica("ledger")
            #expect(latest.path == store)
            #expect(latest.kept != nil, "the replaced store is kept whole")
            #expect(try Self.rows(in: store) == 5)

            let past = try await harness.engine.restoreStoreFromReplica("ledger", at: between)
            #expect(try Self.rows(in: store) == 3, "the write after \(between) is not there")
            let left = FolderEntries.names(in: harness.run.stateDirectory(for: "ledger")).filter {
                $0.contains("from-replica")
            }
            #expect(left.isEmpty, "the restored copy is removed: \(left)")
            #expect(past.kept != latest.kept)

            // Started again, its Litestream copies what the vertical writes next.
            _ = try await harness.engine.startService("ledger")
            try await harness.waitFor("ledger", .ready, count: 2)
            try await Replica.waitUntil("litestream runs again") {
                try await harness.status("ledger").replica?.state == .running
            }
            try await Self.writeReplicated(1, to: store, replica: replica)
            #expect(try await harness.status("ledger").replica?.state == .running)
            await harness.shutdown()
        }

        @Test(Replica.needsLitestream)
        func restoreFromReplica_refusesWhatItCannotDo_beforeAnythingStops() async throws {
            let program = try #require(Replica.litestream)
            let replicaFolder = TemporaryDirectory()
            var plain = ServiceSpec.testd("plain")
            plain.environment = ["VT_TESTD_MIGRATIONS": "1"]
            let harness = try EngineHarness([Replica.replicated("ledger", to: replicaFolder.path), plain]) {
                $0.litestream = program
            }
            try await harness.start()
            try await harness.waitFor("ledger", .ready)
            try await harness.waitFor("plain", .ready)

            do {
                _ = try await harness.engine.restoreStoreFromReplica("plain")
                Issue.record("a service without a replica was restored")
            } catch let error as ServiceError {
                #expect(error.code == .invalidInput && error.message.contains("no replica"), "\(error)")
            }
            #expect(try await harness.status("plain").state == .ready, "a service without a replica keeps running")

            do {
                _ = try await harness.engine.restoreStoreFromReplica("ledger")
                Issue.record("a running service was restored")
            } catch let error as ServiceError {
                #expect(error.code == .conflict, "\(error)")
            }
            #expect(try await harness.status("ledger").state == .ready)

            _ = try await harness.engine.stopService("ledger")
            do {
                _ = try await harness.engine.restoreStoreFromReplica("ledger", at: "yesterday")
                Issue.record("a time that is not RFC 3339 was taken")
            } catch let error as ServiceError {
                #expect(error.code == .invalidInput && error.message.contains("RFC 3339"), "\(error)")
            }
            let store = harness.run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            let pool = try DatabasePool(path: store)
            try await pool.write { db in try db.execute(sql: "INSERT INTO v1 DEFAULT VALUES") }
            try pool.close()
            do {
                _ = try await harness.engine.restoreStoreFromReplica("ledger", at: "2000-01-01T00:00:00Z")
                Issue.record("a time before any copy was restored")
            } catch let error as ServiceError {
                #expect(error.code == .unavailable && error.message.contains("litestream restore failed"), "\(error)")
            }
            #expect(try Self.rows(in: store) == 1, "a failed Litestream leaves the store as it was")
            await harness.shutdown()
        }
    }
}
