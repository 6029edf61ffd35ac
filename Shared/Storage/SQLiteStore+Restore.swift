#if canImport(Glibc)
import Glibc
#endif
import GRDB

extension SQLiteStore {
    /// Puts a backup in place of a *stopped* vertical's store, and keeps the store it replaces.
    ///
    /// 1. `file` must be a whole SQLite store (`PRAGMA integrity_check`) of `owner` or of no
    ///    vertical yet (an older build's backup, application_id 0): another vertical's store is
    ///    refused, naming it when `knownOwners` holds its name (see ``StoreOwner``).
    /// 2. It is copied beside `path` and synced.
    /// 3. The store it replaces is kept *whole*: SQLite's backup API copies it, commits still in
    ///    its `-wal` included, into one owner-only file beside it,
    ///    `<name>.before-restore-<UTC time>.sqlite` (`-2`, `-3`, … when that exists: an earlier
    ///    one is never overwritten), which `restore` takes back to return exactly to that state.
    ///    A store SQLite cannot read is kept as its files are instead (`-wal` and `-shm` renamed beside it).
    /// 4. The old `-wal` and `-shm` go, and the copy is renamed over `path` in one step.
    ///
    /// Nobody may have `path` open: the caller checks the vertical is stopped, and the restore
    /// holds the store's lock throughout (see ``open(directory:fileName:owner:migrator:durability:)``),
    /// so a daemon started by hand on the store is refused too. `owner` defaults to the vertical
    /// `path` is named for.
    ///
    /// Root restoring into a folder another user owns (a vertical's state folder) reads `file`
    /// as root, then does everything in that folder as the folder's owner (``FolderOwnerAccess``):
    /// a link the vertical planted where the lock, the store, its `-wal` or the copy go reaches
    /// nothing the vertical could not reach itself, and the files made are the vertical's. With
    /// `fileInFolder` (a backup the vertical itself made, as an upgrade's rollback puts back),
    /// `file` must sit in that folder and is read as its owner too.
    ///
    /// Returns where the replaced store was kept, or nil when there was none.
    /// - Throws: ``StoreError`` naming what is wrong with `file` or the folder, or the process
    ///   that has the store open (``StoreError/isHeld``).
    @discardableResult
    public static func restore(
        _ file: String, to path: String, owner: StoreOwner? = nil, knownOwners: [String] = [],
        fileInFolder: Bool = false
    ) throws -> String? {
        let owner = owner ?? StoreOwner(fileName: path)
        let folder = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        if fileInFolder {
            let name = file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : ""
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw StoreError(message: "the backup \(file) is not a file of \(folder): it is not put back")
            }
            return try FolderOwnerAccess.run(in: folder) {
                try checkBackup(file, of: owner, knownOwners: knownOwners)
                return try put(file, over: path)
            }
        }
        try checkBackup(file, of: owner, knownOwners: knownOwners)
        let source = Glibc.open(file, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw StoreError.system("cannot open \(file)") }
        defer { close(source) }
        return try FolderOwnerAccess.run(in: folder) { try put(source, named: file, over: path) }
    }

    /// ``put(_:named:over:)`` of the file at `file`, opened without following a symbolic link.
    private static func put(_ file: String, over path: String) throws -> String? {
        let source = Glibc.open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard source >= 0 else { throw StoreError.system("cannot open \(file) (a symbolic link is refused)") }
        defer { close(source) }
        return try put(source, named: file, over: path)
    }

    /// Steps 2–4 of ``restore(_:to:owner:knownOwners:fileInFolder:)``: `source`, the checked `file`, copied
    /// beside `path`, the store there kept whole, the copy renamed over it.
    private static func put(_ source: Int32, named file: String, over path: String) throws -> String? {
        let lock = try StoreLock.acquire("\(path).lock", for: path)
        defer { withExtendedLifetime(lock) {} }
        let temporary = "\(path).restore-\(getpid())"
        unlink(temporary)  // left by a restore that died, since we hold the lock
        do {
            try BackupFile.copy(source, named: file, to: temporary, mode: 0o600)
            let kept = try keepWhole(path)
            for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
                guard unlink(path + suffix) == 0 else { throw StoreError.system("cannot remove \(path + suffix)") }
            }
            try syncAndRename(temporary, to: path)
            return kept
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Copies the store at `path` (main file and `-wal`) into one new file beside it and checkpoints
    /// it, so its main file alone is whole; returns the copy's path, or nil when there is no store.
    static func keepWhole(_ path: String) throws -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        let stem = path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) : path
        let kept = BackupFile.unused("\(stem).before-restore-\(BackupFile.timestamp()).sqlite")
        do {
            let old = try DatabaseQueue(path: path)
            try backup(old, to: kept)
            try old.writeWithoutTransaction { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try old.close()
            return kept
        } catch {
            // Damaged beyond SQLite's reading: keep its files as they are, all of them.
            unlink(kept)
            for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
                // A hard link for the main file keeps `path` in place until the rename over it.
                let moved = suffix.isEmpty ? link(path, kept) : rename(path + suffix, kept + suffix)
                guard moved == 0 else { throw StoreError.system("cannot keep \(path + suffix) aside") }
            }
            return kept
        }
    }

    /// Throws unless `file` opens as an SQLite store that passes `PRAGMA integrity_check` and
    /// belongs to `owner` or to no vertical yet.
    static func checkBackup(_ file: String, of owner: StoreOwner, knownOwners: [String]) throws {
        guard access(file, R_OK) == 0 else { throw StoreError.system("cannot read \(file)") }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.qos = SQLiteStore.queueQoS
        let verdict: String
        do {
            let queue = try DatabaseQueue(path: file, configuration: configuration)
            defer { try? queue.close() }
            verdict = try queue.read { db in
                let verdict = try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer"
                if verdict == "ok" { try owner.check(db, path: file, candidates: { knownOwners }) }
                return verdict
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(message: "\(file) is not an SQLite store: \(error)")
        }
        guard verdict == "ok" else { throw StoreError(message: "\(file) is damaged: \(verdict)") }
    }
}
