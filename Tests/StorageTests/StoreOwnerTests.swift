import GRDB
import Glibc
import Testing
import VerticalsStorage
import VerticalsTesting

/// Each store says which vertical it belongs to (SQLite's application_id): opening or restoring
/// another vertical's store is refused, naming both, and an older build's store is adopted.
struct StoreOwnerTests {
    /// A store of vertical `name` at `root/name/name.sqlite` holding one row `value`, closed;
    /// returns the path of a backup of it, `root/name-backup.sqlite`.
    static func store(_ name: String, in root: TemporaryDirectory, value: String = "x") throws -> String {
        let pool = try SQLiteStore.open(
            directory: root.file(name), fileName: "\(name).sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        try pool.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES (?)", arguments: [value]) }
        try SQLiteStore.backup(pool, to: root.file("\(name)-backup.sqlite"))
        try pool.close()
        return root.file("\(name)-backup.sqlite")
    }

    @Test func applicationID_isTheFNV1aHashOfTheName_andNeverZero() {
        // FNV-1a 32 of "catalog", computed by hand from the published offset basis and prime.
        var hash: UInt32 = 0x811c_9dc5
        for byte in "catalog".utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        #expect(StoreOwner("catalog").applicationID == Int32(bitPattern: hash))
        #expect(StoreOwner("catalog").applicationID != StoreOwner("archive").applicationID)
        #expect(StoreOwner(fileName: "/b/catalog-20261122T123000Z-2.sqlite") == StoreOwner("catalog"))
    }

    /// The `application_id` the store at `path` is stamped with.
    static func applicationID(_ path: String) throws -> Int? {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") }
    }

    @Test func open_stampsTheStoreWithItsVertical() throws {
        let root = TemporaryDirectory()
        _ = try Self.store("catalog", in: root)

        #expect(try Self.applicationID(root.file("catalog/catalog.sqlite")) == Int(StoreOwner("catalog").applicationID))
    }

    @Test func open_givenAnOlderBuildsStoreWithoutOwner_adoptsIt() throws {
        let root = TemporaryDirectory()
        mkdir(root.file("catalog"), 0o700)
        let legacy = try DatabaseQueue(path: root.file("catalog/catalog.sqlite"))
        try StoreSafetyTests.migrator(["v1"]).migrate(legacy)
        try legacy.write { db in try db.execute(sql: "INSERT INTO t_v1 VALUES ('old')") }
        try legacy.close()

        let pool = try SQLiteStore.open(
            directory: root.file("catalog"), fileName: "catalog.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        defer { try? pool.close() }
        #expect(
            try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") }
                == Int(StoreOwner("catalog").applicationID))
        #expect(try pool.read { db in try String.fetchAll(db, sql: "SELECT x FROM t_v1") } == ["old"])
    }

    @Test func open_givenAnotherVerticalsStore_refusesNamingBoth_andARestartCannotHelp() throws {
        let root = TemporaryDirectory()
        let archive = try Self.store("archive", in: root)
        mkdir(root.file("catalog"), 0o700)
        try BackupFileTests.copy(archive, to: root.file("catalog/catalog.sqlite"))

        let error = try #require(throws: StoreError.self) {
            try SQLiteStore.open(
                directory: root.file("catalog"), fileName: "catalog.sqlite", migrator: StoreSafetyTests.migrator(["v1"])
            )
        }
        #expect(error.restartCannotHelp)
        #expect(error.message.contains("archive's store, not catalog's"), "\(error.message)")
        // Refused before anything was written: the file still says archive.
        #expect(try Self.applicationID(root.file("catalog/catalog.sqlite")) == Int(StoreOwner("archive").applicationID))
    }

    @Test func restore_givenAnotherVerticalsBackup_refusesNamingBoth_andLeavesTheStoreAlone() throws {
        let root = TemporaryDirectory()
        let archive = try Self.store("archive", in: root)
        _ = try Self.store("catalog", in: root, value: "mine")
        let catalog = root.file("catalog/catalog.sqlite")

        let error = try #require(throws: StoreError.self) {
            try SQLiteStore.restore(archive, to: catalog, knownOwners: ["ledger", "archive"])
        }
        #expect(error.message.contains("archive's store, not catalog's"), "\(error.message)")
        let store = try DatabaseQueue(path: catalog)
        #expect(try store.read { db in try String.fetchAll(db, sql: "SELECT x FROM t_v1") } == ["mine"])
    }

    @Test func open_underCheck_neverCreatesAStoreNorItsFolder() throws {
        let root = TemporaryDirectory()

        let error = try #require(throws: StoreError.self) {
            try SQLiteStore.$checking.withValue(true) {
                try SQLiteStore.open(
                    directory: root.file("catalog"), fileName: "catalog.sqlite",
                    migrator: StoreSafetyTests.migrator(["v1"]))
            }
        }
        #expect(error.code == .missing)
        #expect(access(root.file("catalog"), F_OK) != 0, "the check created the state directory")
        // An existing store is still checked (and opened) under --check.
        _ = try Self.store("catalog", in: root)
        try SQLiteStore.$checking.withValue(true) {
            try SQLiteStore.open(
                directory: root.file("catalog"), fileName: "catalog.sqlite", migrator: StoreSafetyTests.migrator(["v1"])
            )
        }.close()
    }
}
