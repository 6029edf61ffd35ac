#if canImport(Glibc)
import Glibc
#endif
import GRDB

extension SQLiteStore {
    /// Writes a consistent copy of `database` to `path` while it keeps serving: SQLite's online
    /// backup API (through GRDB) reads one snapshot, so writers carry on and the copy holds
    /// every commit up to one moment, whether it sits in the main file or still in the `-wal`.
    /// It blocks for the copy's length: call it off the event loop (ServiceKit's `daemon.backup`
    /// runs it on `Offload`). The copy is one file (no `-wal` beside it), readable by its owner
    /// only (0600: identity's holds password and token hashes), carries the store's owner
    /// (``StoreOwner``), and goes to a temporary file beside `path` that is synced, then linked to
    /// `path`, so `path` is either absent or a whole store, and an existing file is never replaced,
    /// even by a backup racing this one. Returns its size in bytes.
    ///
    /// - Throws: ``StoreError`` when `path` is not absolute or exists already; `DatabaseError`
    ///   (`SQLITE_FULL` when the disk fills) otherwise. The temporary file never stays behind.
    @discardableResult
    public static func backup(_ database: any DatabaseReader, to path: String) throws -> Int {
        guard path.hasPrefix("/") else { throw StoreError(.refused, "the backup path \(path) is not absolute") }
        guard access(path, F_OK) != 0 else { throw StoreError.exists(path) }
        let temporary = try BackupFile.createTemporary(beside: path)
        do {
            let copy = try DatabaseQueue(path: temporary)
            try database.backup(to: copy)
            // One file, and one that stays one: the copy of a WAL store says WAL in its header, and
            // whoever opens it then (restore's check, sqlite3) leaves a -wal and a -shm beside it.
            // A rollback-journal copy leaves nothing; the store it is restored to turns WAL on again.
            try copy.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            }
            try copy.close()
            try BackupFile.syncAndLink(temporary, to: path)
        } catch {
            unlink(temporary)
            throw error
        }
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// fsyncs `temporary`, renames it to `path` (replacing what is there) and fsyncs the folder so
    /// the rename survives a power cut.
    static func syncAndRename(_ temporary: String, to path: String) throws {
        try BackupFile.sync(temporary)
        guard rename(temporary, path) == 0 else { throw StoreError.system("cannot rename \(temporary) to \(path)") }
        BackupFile.syncFolder(of: path)
    }
}
