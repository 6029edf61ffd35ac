import Glibc
import Testing
import VerticalsStorage
import VerticalsTesting

/// Backup files are owner-only and never replace a file.
struct BackupFileTests {
    /// Copies `source` to `destination` byte for byte (a file moved by hand).
    static func copy(_ source: String, to destination: String) throws {
        let bytes = try #require(readFileBytes(source))
        let file = try #require(fopen(destination, "w"))
        defer { fclose(file) }
        #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func backup_isReadableByItsOwnerOnly_andNeverReplacesAFile() throws {
        let directory = TemporaryDirectory()
        let live = try SQLiteStore.open(
            directory: directory.path, fileName: "s.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        defer { try? live.close() }
        let path = directory.file("copy.sqlite")

        try SQLiteStore.backup(live, to: path)
        let first = readFileBytes(path)
        try live.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES ('later')") }

        #expect(Self.mode(path) == 0o600)
        #expect(throws: StoreError.self) { try SQLiteStore.backup(live, to: path) }
        #expect(readFileBytes(path) == first, "the second backup replaced the first")
        #expect(access(path + "-wal", F_OK) != 0, "a backup is one file")
    }

    /// Writes `content` as backup `name` under `state/backups`, as a vertical does.
    static func stage(_ content: String, as name: String, in state: String) {
        mkdir(state, 0o700)
        mkdir("\(state)/backups", 0o700)
        let file = fopen("\(state)/backups/\(name)", "w")
        fputs(content, file)
        fclose(file)
    }

    @Test func take_givenANameThatExists_numbersTheNewOne_andKeepsBoth() throws {
        let directory = TemporaryDirectory()
        mkdir(directory.file("out"), 0o700)
        let state = directory.file("state")
        for content in ["one", "two"] {
            Self.stage(content, as: "b-\(content)", in: state)
            let taken = try BackupFile.take(
                "b-\(content)", fromStateFolder: state, intoFolder: directory.file("out"),
                as: "catalog-20261122T123000Z.sqlite")
            #expect(taken.bytes == 3)
            #expect(access("\(state)/backups/b-\(content)", F_OK) != 0, "the vertical's copy stays behind")
        }

        #expect(readFileBytes(directory.file("out/catalog-20261122T123000Z.sqlite")) == Array("one".utf8))
        #expect(readFileBytes(directory.file("out/catalog-20261122T123000Z-2.sqlite")) == Array("two".utf8))
    }

    @Test func take_copiesOwnerOnly_andRefusesALinkOrAPath() throws {
        let directory = TemporaryDirectory()
        mkdir(directory.file("out"), 0o700)
        let state = directory.file("state")
        Self.stage("the backup", as: "b", in: state)
        chmod("\(state)/backups/b", 0o644)
        let outside = directory.file("outside")
        Self.stage("not a backup", as: "x", in: outside)
        symlink("\(outside)/backups/x", "\(state)/backups/link")

        let taken = try BackupFile.take("b", fromStateFolder: state, intoFolder: directory.file("out"), as: "c.sqlite")

        #expect(taken.path == directory.file("out/c.sqlite"))
        #expect(readFileBytes(taken.path) == Array("the backup".utf8))
        #expect(Self.mode(taken.path) == 0o600)
        for name in ["link", "../../outside/backups/x"] {
            #expect(throws: StoreError.self) {
                try BackupFile.take(name, fromStateFolder: state, intoFolder: directory.file("out"), as: "d.sqlite")
            }
        }
        #expect(readFileBytes("\(outside)/backups/x") == Array("not a backup".utf8), "the file outside is untouched")
        #expect(access(directory.file("out/d.sqlite"), F_OK) != 0, "nothing written for a refused backup")
    }
}
