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
        // FNV-1a 32 of "clinics", computed by hand from the published offset basis and prime.
        var hash: UInt32 = 0x811c_9dc5
        for byte in "clinics".utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        #expect(StoreOwner("clinics").applicationID == Int32(bitPattern: hash))
        #expect(StoreOwner("clinics").applicationID != StoreOwner("records").applicationID)
        #expect(StoreOwner(fileName: "/b/clinics-20261122T123000Z-2.sqlite") == StoreOwner("clinics"))
    }

    @Test func open_stampsTheStoreWithItsVertical() throws {
        let root = TemporaryDirectory()
        _ = try Self.store("clinics", in: root)

        let stamped = try DatabaseQueue(path: root.file("clinics/clinics.sqlite"))
        #expect(try stamped.read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") }
            == Int(StoreOwner("clinics").applicationID))
    }

    @Test func open_givenAnOlderBuildsStoreWithoutOwner_adoptsIt() throws {
        let root = TemporaryDirectory()
        mkdir(root.file("clinics"), 0o700)
        let legacy = try DatabaseQueue(path: root.file("clinics/clinics.sqlite"))
        try StoreSafetyTests.migrator(["v1"]).migrate(legacy)
        try legacy.write { db in try db.execute(sql: "INSERT INTO t_v1 VALUES ('old')") }
        try legacy.close()

        let pool = try SQLiteStore.open(
            directory: root.file("clinics"), fileName: "clinics.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        defer { try? pool.close() }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") }
            == Int(StoreOwner("clinics").applicationID))
        #expect(try pool.read { db in try String.fetchAll(db, sql: "SELECT x FROM t_v1") } == ["old"])
    }

    @Test func open_givenAnotherVerticalsStore_refusesNamingBoth_andARestartCannotHelp() throws {
        let root = TemporaryDirectory()
        let records = try Self.store("records", in: root)
        mkdir(root.file("clinics"), 0o700)
        try BackupFileTests.copy(records, to: root.file("clinics/clinics.sqlite"))

        let error = try #require(throws: StoreError.self) {
            try SQLiteStore.open(
                directory: root.file("clinics"), fileName: "clinics.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        }
        #expect(error.restartCannotHelp)
        #expect(error.message.contains("records's store, not clinics's"), "\(error.message)")
        // Refused before anything was written: the file still says records.
        let untouched = try DatabaseQueue(path: root.file("clinics/clinics.sqlite"))
        #expect(try untouched.read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") }
            == Int(StoreOwner("records").applicationID))
    }

    @Test func restore_givenAnotherVerticalsBackup_refusesNamingBoth_andLeavesTheStoreAlone() throws {
        let root = TemporaryDirectory()
        let records = try Self.store("records", in: root)
        _ = try Self.store("clinics", in: root, value: "mine")
        let clinics = root.file("clinics/clinics.sqlite")

        let error = try #require(throws: StoreError.self) {
            try SQLiteStore.restore(records, to: clinics, knownOwners: ["identity", "records"])
        }
        #expect(error.message.contains("records's store, not clinics's"), "\(error.message)")
        let store = try DatabaseQueue(path: clinics)
        #expect(try store.read { db in try String.fetchAll(db, sql: "SELECT x FROM t_v1") } == ["mine"])
    }

    @Test func open_underCheck_neverCreatesAStoreNorItsFolder() throws {
        let root = TemporaryDirectory()

        let error = try #require(throws: StoreError.self) {
            try SQLiteStore.$checking.withValue(true) {
                try SQLiteStore.open(
                    directory: root.file("clinics"), fileName: "clinics.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
            }
        }
        #expect(error.isMissing)
        #expect(access(root.file("clinics"), F_OK) != 0, "the check created the state directory")
        // An existing store is still checked (and opened) under --check.
        _ = try Self.store("clinics", in: root)
        try SQLiteStore.$checking.withValue(true) {
            try SQLiteStore.open(
                directory: root.file("clinics"), fileName: "clinics.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        }.close()
    }
}
