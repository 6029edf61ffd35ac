import Foundation
import GRDB
import Glibc
import Testing
import VerticalsStorage
import VerticalsTesting

/// `--place-replica-copy`: the copy a deployment's `litestream restore` wrote beside the store is
/// put in place only once it passed every check of a backup's restore, and one that fails is kept
/// aside, never the store.
struct ReplicaCopyPlacementTests {
    /// The state folder of vertical `name` in `root`, with a copy at `<name>.from-replica.sqlite`
    /// that `write` makes there; returns the folder.
    static func folder(
        _ name: String, in root: TemporaryDirectory, copy write: (String) throws -> Void
    ) throws -> String {
        let folder = root.file("state/\(name)")
        #expect(mkdir(root.file("state"), 0o700) == 0 && mkdir(folder, 0o700) == 0)
        try write("\(folder)/\(SQLiteStore.replicaCopyName(of: "\(name).sqlite"))")
        return folder
    }

    /// Copies the backup at `source` to `destination`.
    static func copy(_ source: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    static func place(_ folder: String, _ name: String = "catalog", schema: [String] = ["v1"]) throws -> String {
        try SQLiteStore.placeReplicaCopy(
            directory: folder, fileName: "\(name).sqlite", migrator: StoreSafetyTests.migrator(schema))
    }

    @Test func aWholeCopyOfThisVertical_isPlacedOwnerOnly_andTheCopyGoes() throws {
        let root = TemporaryDirectory()
        let backup = try StoreOwnerTests.store("catalog", in: root, value: "from the replica")
        let folder = try Self.folder("catalog", in: root) { try Self.copy(backup, to: $0) }

        let said = try Self.place(folder)

        #expect(said.contains("placed"), "\(said)")
        let store = "\(folder)/catalog.sqlite"
        var status = stat()
        #expect(lstat(store, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(access("\(folder)/catalog.from-replica.sqlite", F_OK) != 0, "the copy is gone")
        let queue = try DatabaseQueue(path: store)
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT x FROM t_v1") } == "from the replica")
    }

    @Test func noCopy_placesNothing_andAStoreThere_isLeftAsItIs() throws {
        let root = TemporaryDirectory()
        let folder = try Self.folder("catalog", in: root) { _ in }

        #expect(try Self.place(folder).contains("nothing placed"))
        #expect(access("\(folder)/catalog.sqlite", F_OK) != 0, "no store made")

        #expect(writeFile("the store", to: "\(folder)/catalog.sqlite"))
        #expect(writeFile("a copy", to: "\(folder)/catalog.from-replica.sqlite"))
        #expect(try Self.place(folder).contains("not placed"))
        #expect(readFile("\(folder)/catalog.sqlite") == "the store")
        #expect(access("\(folder)/catalog.from-replica.sqlite", F_OK) != 0, "the copy is removed")
    }

    /// A replica a less-trusted place writes can hold any file: not SQLite, another vertical's
    /// store, a newer build's, or a link. Each is refused naming the check, kept aside, and no
    /// store is made.
    @Test(arguments: ["notSQLite", "otherVertical", "newerSchema", "link"])
    func aCopyThatFailsACheck_isKeptAside_andNoStoreIsMade(kind: String) throws {
        let root = TemporaryDirectory()
        let other = try StoreOwnerTests.store("archive", in: root)
        let newer = root.file("newer")
        #expect(mkdir(newer, 0o700) == 0)
        let pool = try SQLiteStore.open(
            directory: newer, fileName: "catalog.sqlite", migrator: StoreSafetyTests.migrator(["v1", "v2"]))
        try SQLiteStore.backup(pool, to: root.file("newer-backup.sqlite"))
        try pool.close()
        let folder = try Self.folder("catalog", in: root) { copy in
            switch kind {
            case "notSQLite": #expect(writeFile(String(repeating: "A", count: 4096), to: copy))
            case "otherVertical": try Self.copy(other, to: copy)
            case "newerSchema": try Self.copy(root.file("newer-backup.sqlite"), to: copy)
            default: #expect(symlink(root.file("archive/archive.sqlite"), copy) == 0)
            }
        }

        #expect {
            _ = try Self.place(folder)
        } throws: { error in
            let error = error as? StoreError
            let expected: [String: StoreError.Code] = [
                "notSQLite": .notAStore, "otherVertical": .otherOwner, "newerSchema": .newerSchema, "link": .system,
            ]
            return error?.code == expected[kind]
                && error?.message.contains("catalog.from-replica.refused.sqlite") == true
        }
        #expect(access("\(folder)/catalog.sqlite", F_OK) != 0, "no store made")
        var status = stat()
        #expect(lstat("\(folder)/catalog.from-replica.refused.sqlite", &status) == 0, "the copy is kept aside")
        #expect(lstat("\(folder)/catalog.from-replica.sqlite", &status) != 0)
    }
}
