import Glibc
import Testing
import VerticalsStorage
import VerticalsTesting

/// Backup files are owner-only and never replace a file.
struct BackupFileTests {
    /// Copies `source` to `destination` byte for byte (a file moved by hand).
    static func copy(_ source: String, to destination: String) throws {
        let bytes = try #require(readAll(source))
        let file = try #require(fopen(destination, "w"))
        defer { fclose(file) }
        #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
    }

    /// The bytes of `path`, or nil.
    static func readAll(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func backup_isReadableByItsOwnerOnly_andNeverReplacesAFile() throws {
        let directory = TemporaryDirectory()
        let live = try SQLiteStore.open(directory: directory.path, fileName: "s.sqlite", migrator: StoreSafetyTests.migrator(["v1"]))
        defer { try? live.close() }
        let path = directory.file("copy.sqlite")

        try SQLiteStore.backup(live, to: path)
        let first = BackupFileTests.readAll(path)
        try live.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES ('later')") }

        #expect(Self.mode(path) == 0o600)
        #expect(throws: StoreError.self) { try SQLiteStore.backup(live, to: path) }
        #expect(Self.readAll(path) == first, "the second backup replaced the first")
        #expect(access(path + "-wal", F_OK) != 0, "a backup is one file")
    }

    @Test func move_givenANameThatExists_numbersTheNewOne_andKeepsBoth() throws {
        let directory = TemporaryDirectory()
        mkdir(directory.file("out"), 0o700)
        for content in ["one", "two"] {
            let staged = directory.file("staged-\(content)")
            let file = fopen(staged, "w")
            fputs(content, file)
            fclose(file)
            _ = try BackupFile.move(staged, intoFolder: directory.file("out"), as: "clinics-20261122T123000Z.sqlite")
            #expect(access(staged, F_OK) != 0, "the staged file stays behind")
        }

        #expect(Self.readAll(directory.file("out/clinics-20261122T123000Z.sqlite")) == Array("one".utf8))
        #expect(Self.readAll(directory.file("out/clinics-20261122T123000Z-2.sqlite")) == Array("two".utf8))
    }

    /// The device `path` is on.
    static func device(_ path: String) -> UInt {
        var info = stat()
        return stat(path, &info) == 0 ? UInt(info.st_dev) : 0
    }

    @Test(.enabled(if: device("/dev/shm") != device("/tmp"), "needs /dev/shm on another file system than /tmp"))
    func move_toAnotherFileSystem_copiesOwnerOnly_andRemovesTheSource() throws {
        let directory = TemporaryDirectory()
        var template = Array("/dev/shm/vt.XXXXXX".utf8CString)
        let other = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer {
            unlink("\(other)/clinics-1.sqlite")
            rmdir(other)
        }
        let staged = directory.file("staged")
        let file = fopen(staged, "w")
        fputs("the backup", file)
        fclose(file)
        chmod(staged, 0o644)

        let moved = try BackupFile.move(staged, intoFolder: other, as: "clinics-1.sqlite")

        #expect(moved == "\(other)/clinics-1.sqlite")
        #expect(Self.readAll(moved) == Array("the backup".utf8))
        #expect(Self.mode(moved) == 0o600)
        #expect(access(staged, F_OK) != 0, "the source stays behind")
    }
}
