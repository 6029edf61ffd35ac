import GRDB
import Glibc
import Testing
import VerticalsStorage
import VerticalsTesting

/// Storage's guards: a store from a newer build is refused, a restore checks what it puts in place.
struct StoreSafetyTests {
    static func migrator(_ versions: [String]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for version in versions {
            migrator.registerMigration(version) { db in try db.execute(sql: "CREATE TABLE t_\(version) (x)") }
        }
        return migrator
    }

    /// The open pool of a store at `<directory>/s.sqlite` whose `t_v1` holds `value`, and its backup at
    /// `<directory>/backup.sqlite`.
    static func storeWithBackup(in directory: TemporaryDirectory, holding value: String) throws -> DatabasePool {
        let live = try SQLiteStore.open(directory: directory.path, fileName: "s.sqlite", migrator: migrator(["v1"]))
        try live.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES (?)", arguments: [value]) }
        try SQLiteStore.backup(live, to: directory.file("backup.sqlite"))
        return live
    }

    /// GRDB sets synchronous=NORMAL on a pool's writer when it turns WAL on, after the
    /// configuration's own pragmas: the durability asked for must still be what commits use.
    @Test(arguments: [(SQLiteStore.Durability.full, 2), (.normal, 1)])
    func open_commitsWithTheDurabilityAskedFor(durability: SQLiteStore.Durability, pragma: Int) throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore.open(
            directory: directory.path, fileName: "s.sqlite", migrator: Self.migrator(["v1"]), durability: durability)
        let writer = try store.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(writer == pragma, "the writer commits with synchronous=\(String(describing: writer))")
        try store.close()
    }

    @Test func open_givenAStoreANewerBuildMigrated_refusesNamingTheUnknownMigrations() throws {
        let directory = TemporaryDirectory()
        let newer = try SQLiteStore.open(
            directory: directory.path, fileName: "s.sqlite", migrator: Self.migrator(["v1", "v2"]))
        try newer.close()

        #expect {
            _ = try SQLiteStore.open(directory: directory.path, fileName: "s.sqlite", migrator: Self.migrator(["v1"]))
        } throws: { error in
            "\(error)".contains("newer schema") && "\(error)".contains("v2")
                && (error as? StoreError)?.restartCannotHelp == true
        }
        // The same build, and a later one, still open it.
        try SQLiteStore.open(directory: directory.path, fileName: "s.sqlite", migrator: Self.migrator(["v1", "v2"]))
            .close()
        try SQLiteStore.open(
            directory: directory.path, fileName: "s.sqlite", migrator: Self.migrator(["v1", "v2", "v3"])
        )
        .close()
    }

    @Test func restore_putsTheBackupInPlace_andKeepsTheReplacedStore() throws {
        let directory = TemporaryDirectory()
        let live = try Self.storeWithBackup(in: directory, holding: "before")
        try live.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES ('after')") }
        try live.close()

        let kept = try SQLiteStore.restore(directory.file("backup.sqlite"), to: directory.file("s.sqlite"))

        let restored = try DatabaseQueue(path: directory.file("s.sqlite"))
        #expect(try restored.read { db in try String.fetchAll(db, sql: "SELECT x FROM t_v1") } == ["before"])
        let old = try DatabaseQueue(path: try #require(kept))
        #expect(try old.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t_v1") } == 2)
    }

    /// A daemon stopped without a checkpoint leaves commits in the store's `-wal`: the copy
    /// `restore` keeps must hold them, in one file that `restore` takes back.
    @Test func restore_keepsTheReplacedStoreWhole_walIncluded_andRestoringItReturnsToThatState() throws {
        let directory = TemporaryDirectory()
        let live = try SQLiteStore.open(
            directory: directory.path, fileName: "s.sqlite", migrator: Self.migrator(["v1"]))
        try SQLiteStore.backup(live, to: directory.file("empty.sqlite"))
        try live.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES ('a'), ('b')") }
        // The files as a stopped daemon leaves them: the two rows only in the -wal.
        mkdir(directory.file("stopped"), 0o700)
        for suffix in ["", "-wal"] {
            try BackupFileTests.copy(
                directory.file("s.sqlite" + suffix), to: directory.file("stopped/s.sqlite" + suffix))
        }
        try live.close()
        let store = directory.file("stopped/s.sqlite")

        let kept = try #require(try SQLiteStore.restore(directory.file("empty.sqlite"), to: store))
        #expect(kept.contains("before-restore"))
        #expect(access(kept + "-wal", F_OK) != 0, "the kept store is one file")
        let keptAgain = try SQLiteStore.restore(kept, to: store)
        #expect(
            access(kept + "-wal", F_OK) != 0 && access(kept + "-shm", F_OK) != 0, "restoring it left files beside it")

        let back = try DatabaseQueue(path: store)
        #expect(try back.read { db in try String.fetchAll(db, sql: "SELECT x FROM t_v1 ORDER BY x") } == ["a", "b"])
        #expect(keptAgain != kept && access(kept, F_OK) == 0, "the second restore overwrote the first kept store")
    }

    /// A restore is often the answer to a store SQLite can no longer read: it is kept as it was.
    @Test func restore_overAStoreSQLiteCannotRead_keepsItsBytes_andPutsTheBackupInPlace() throws {
        let directory = TemporaryDirectory()
        let live = try Self.storeWithBackup(in: directory, holding: "good")
        try live.close()
        mkdir(directory.file("broken"), 0o700)
        let store = directory.file("broken/s.sqlite")
        let file = fopen(store, "w")
        fputs(String(repeating: "scribbled over ", count: 500), file)
        fclose(file)

        let kept = try #require(try SQLiteStore.restore(directory.file("backup.sqlite"), to: store))

        #expect(readFileBytes(kept) == Array(String(repeating: "scribbled over ", count: 500).utf8))
        let restored = try DatabaseQueue(path: store)
        #expect(try restored.read { db in try String.fetchAll(db, sql: "SELECT x FROM t_v1") } == ["good"])
    }

    @Test func restore_givenAFileThatIsNoStore_refusesAndLeavesTheStoreAlone() throws {
        let directory = TemporaryDirectory()
        try SQLiteStore.open(directory: directory.path, fileName: "s.sqlite", migrator: Self.migrator(["v1"])).close()
        let junk = directory.file("junk.sqlite")
        let file = fopen(junk, "w")
        fputs(String(repeating: "not a database ", count: 500), file)
        fclose(file)

        #expect(throws: StoreError.self) { try SQLiteStore.restore(junk, to: directory.file("s.sqlite")) }
        #expect(throws: StoreError.self) {
            try SQLiteStore.restore(directory.file("missing"), to: directory.file("s.sqlite"))
        }
        let store = try DatabaseQueue(path: directory.file("s.sqlite"))
        #expect(try store.read { db in try db.tableExists("t_v1") })
    }
}
