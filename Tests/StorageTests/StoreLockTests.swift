import GRDB
import Glibc
import Testing
import VerticalsStorage
import VerticalsTesting

/// One process serves a store at a time: `SQLiteStore.open` holds `<store>.lock` while the store
/// is open, refuses a store another pool or process holds, and lets go when the pool does.
@Suite(.blocking, .serialized, .timeLimit(.minutes(1)))
struct StoreLockTests {
    static let migrator = StoreSafetyTests.migrator(["v1"])

    static func open(_ directory: TemporaryDirectory) throws -> DatabasePool {
        try SQLiteStore.open(directory: directory.path, fileName: "s.sqlite", migrator: migrator)
    }

    /// The error `open` throws, if a `StoreError`.
    static func refusal(_ directory: TemporaryDirectory) -> StoreError? {
        do {
            try open(directory).close()
            return nil
        } catch {
            return error as? StoreError
        }
    }

    @Test func open_whileAnotherProcessHoldsTheLock_refusesNamingItsPid_untilItDies() throws {
        let directory = TemporaryDirectory()
        let lock = directory.file("s.sqlite.lock")
        // A process that takes the lock as the store does (flock on the file) and writes its pid
        // into it, then holds it for as long as it lives: fd 9 goes with `exec` into sleep.
        let holder = try DaemonProcess(
            "/bin/sh", ["-c", "exec 9>>\(lock) && flock -n 9 && echo $$ > \(lock) && exec sleep 60"])
        defer { holder.stop() }
        // Two facts, not one: the pid is in the lock file, and `sh` has exec'd `sleep` (the
        // refusal names the holder's program from /proc/PID/cmdline, which says `sh` until the exec).
        try #require(
            eventually {
                readFile(lock) == "\(holder.pid)\n"
                    && readFile("/proc/\(holder.pid)/cmdline")?.hasPrefix("sleep\0") == true
            },
            "the holder never took the lock and became sleep")

        let refused = try #require(Self.refusal(directory), "a store another process holds was opened")

        #expect(refused.code == .held && refused.holderPID == holder.pid)
        #expect(refused.message.contains("sleep (pid \(holder.pid))"), "\(refused)")
        #expect(refused.message.contains(lock) && refused.message.contains("STATE_DIRECTORY"), "\(refused)")
        #expect(access(directory.file("s.sqlite"), F_OK) != 0, "SQLite never opened (so never created) the store")

        holder.stop()
        #expect(Self.refusal(directory) == nil, "the kernel released the lock of the dead holder")
    }

    @Test func open_twiceInOneProcess_refusesTheSecond_andClosingReleasesTheLock() throws {
        let directory = TemporaryDirectory()
        let first = try Self.open(directory)

        let refused = try #require(Self.refusal(directory), "a second pool on one store was opened")
        #expect(refused.code == .held && refused.holderPID == getpid())
        #expect(refused.message.contains("this process"), "\(refused)")
        #expect(try first.read { db in try db.tableExists("t_v1") }, "the first pool still works")

        try first.close()
        #expect(Self.refusal(directory) == nil, "close() released the lock")
        #expect(readFile(directory.file("s.sqlite.lock")) == "\(getpid())\n", "the holder wrote its pid")
    }

    @Test func restore_whileTheStoreIsOpen_refusesAndLeavesItAlone() throws {
        let directory = TemporaryDirectory()
        let live = try Self.open(directory)
        try SQLiteStore.backup(live, to: directory.file("backup.sqlite"))
        try live.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES ('after the backup')") }

        #expect {
            try SQLiteStore.restore(directory.file("backup.sqlite"), to: directory.file("s.sqlite"))
        } throws: { error in
            (error as? StoreError)?.code == .held
        }
        #expect(try live.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t_v1") } == 1)
        try live.close()
        try SQLiteStore.restore(directory.file("backup.sqlite"), to: directory.file("s.sqlite"))
    }

    /// A child forked while the store is open holds a copy of the lock's descriptor until its exec,
    /// and a copy shares the lock: the release must not wait for that copy to go. A `dup` is the
    /// same kind of copy, made without a fork.
    @Test func close_releasesTheLock_whileACopyOfItsDescriptorIsStillOpen() throws {
        let directory = TemporaryDirectory()
        let pool = try Self.open(directory)
        let lockFile = directory.file("s.sqlite.lock")
        let original = try #require(
            (0..<Int32(4096)).first { fd in
                var target = [CChar](repeating: 0, count: 4096)
                let count = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
                return count > 0
                    && String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == lockFile
            }, "the open store holds no descriptor of its lock file")
        let copy = dup(original)
        try #require(copy >= 0)
        defer { close(copy) }

        try pool.close()

        #expect(Self.refusal(directory) == nil, "the lock stayed held by the copy of its descriptor")
    }

    @Test func open_afterThePoolIsReleasedWithoutClose_succeeds() throws {
        let directory = TemporaryDirectory()
        do {
            let pool = try Self.open(directory)
            try pool.write { db in try db.execute(sql: "INSERT INTO t_v1 (x) VALUES (1)") }
        }
        let again = try #require(
            try? Self.open(directory), "the released pool kept its lock: \(String(describing: Self.refusal(directory)))"
        )
        #expect(try again.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t_v1") } == 1)
        try again.close()
    }

    @Test func open_refusedForANewerSchema_releasesTheLock() throws {
        let directory = TemporaryDirectory()
        try SQLiteStore.open(
            directory: directory.path, fileName: "s.sqlite", migrator: StoreSafetyTests.migrator(["v1", "v2"])
        )
        .close()

        let refusal = Self.refusal(directory)
        #expect(refusal?.code != .held, "the failed open left a lock behind: \(String(describing: refusal))")
        #expect(refusal?.message.contains("newer schema") == true)
    }
}
