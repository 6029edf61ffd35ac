import GRDB
import Testing
import VerticalsStorage
import VerticalsTesting

/// A store Litestream replicates leaves the checkpoints to it and waits longer on its locks; a store
/// without a replica opens exactly as before.
struct StoreReplicationTests {
    /// The store's `wal_autocheckpoint` and `busy_timeout` (ms), as its writer sees them.
    static func settings(_ replication: SQLiteStore.Replication) throws -> (Int, Int) {
        let directory = TemporaryDirectory()
        let pool = try SQLiteStore.$replication.withValue(replication) {
            try SQLiteStore.open(
                directory: directory.path, fileName: "s.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        }
        defer { try? pool.close() }
        return try pool.write { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? -1,
                try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? -1
            )
        }
    }

    @Test func replicatedStore_leavesCheckpointsToLitestream_andWaitsLongerOnItsLocks() throws {
        let (ceiling, busy) = try Self.settings(.litestream)
        #expect(ceiling == 10_000, "the daemon checkpoints only past Litestream's own thresholds")
        #expect(busy == 10_000, "longer than Litestream's 1 s, which gives up first")
    }

    @Test func storeWithoutReplica_keepsSQLitesCheckpoint_andFiveSeconds() throws {
        let (ceiling, busy) = try Self.settings(.none)
        #expect(ceiling == 1_000)
        #expect(busy == 5_000)
    }

    @Test(arguments: [
        (["VERTICALS_STORE_REPLICA": "litestream"], SQLiteStore.Replication.litestream),
        ([:], .none), (["VERTICALS_STORE_REPLICA": "rsync"], .none),
    ])
    func replication_isReadFromTheEnvironment(environment: [String: String], expected: SQLiteStore.Replication) {
        #expect(SQLiteStore.Replication(environment: environment) == expected)
    }
}
