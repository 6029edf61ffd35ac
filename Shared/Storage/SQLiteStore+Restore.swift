#if canImport(Glibc)
import Glibc
#endif
import GRDB

extension SQLiteStore {
    /// Puts a backup in place of a *stopped* vertical's store, and keeps the store it replaces.
    ///
    /// 1. `file` is opened the way root takes any file a request names
    ///    (``FolderOwnerAccess/openFile(_:)``): no link on the way, as the owner of the first
    ///    folder that is not root's, only a plain file with one name, and a FIFO never blocks.
    /// 2. It is copied beside `path` and synced, and the copy must be a whole SQLite store
    ///    (`PRAGMA integrity_check`, read by `reader`: see ``UntrustedStoreReader``) of `owner` or
    ///    of no vertical yet (an older build's backup,
    ///    application_id 0): another vertical's store is refused, naming it when `knownOwners`
    ///    holds its name (see ``StoreOwner``).
    /// 3. The store it replaces is kept *whole* in `keptFolder`, a folder of the caller's (root's
    ///    own under the supervisor, never the vertical's): its main file and `-wal`, read from
    ///    descriptors that follow no link, are copied there and checkpointed into one owner-only
    ///    file, `<name>.before-restore-<UTC time>.sqlite` (`-2`, `-3`, … when that exists: an
    ///    earlier one is never overwritten), which `restore` takes back to return exactly to that
    ///    state. A store SQLite cannot read is kept as its files are (`-wal` beside it).
    /// 4. The old `-wal` and `-shm` go, and the copy is renamed over `path` in one step.
    ///
    /// Nobody may have `path` open: the caller checks the vertical is stopped, and the restore
    /// holds the store's lock throughout (see ``open(directory:fileName:owner:migrator:durability:)``),
    /// so a daemon started by hand on the store is refused too. `owner` defaults to the vertical
    /// `path` is named for; `keptFolder` to the store's own folder (a store of the caller's own).
    ///
    /// Everything in the store's folder is done as the folder's owner (``FolderOwnerAccess``): a
    /// link the vertical planted where the lock, the store, its `-wal` or the copy go reaches
    /// nothing the vertical could not reach itself, and the files made are the vertical's. With
    /// `fileInFolder` (a backup the vertical itself made, as an upgrade's rollback puts back),
    /// `file` must sit in that folder.
    ///
    /// Returns where the replaced store was kept, or nil when there was none.
    /// - Throws: ``StoreError`` naming what is wrong with `file` or the folder, or the process
    ///   that has the store open (a ``StoreError`` of code `held`).
    @discardableResult
    public static func restore(
        _ file: String, to path: String, owner: StoreOwner? = nil, knownOwners: [String] = [],
        keepIn keptFolder: String? = nil, fileInFolder: Bool = false, reader: UntrustedStoreReader = .inProcess
    ) throws -> String? {
        let owner = owner ?? StoreOwner(fileName: path)
        let folder = BackupFile.folder(of: path)
        if fileInFolder {
            let name = file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : ""
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw StoreError(.refused, "the backup \(file) is not a file of \(folder): it is not put back")
            }
        }
        let source = try FolderOwnerAccess.openFile(file)
        defer { close(source) }
        // Another vertical's backup never lands in this one's folder, not even to be checked.
        try owner.checkHeader(source, path: file, candidates: { knownOwners })
        let access = try FolderOwnerAccess.owner(of: folder)
        let lock = try FolderOwnerAccess.run(as: access) { try StoreLock.acquire("\(path).lock", for: path) }
        defer { withExtendedLifetime(lock) {} }
        let temporary = "\(path).restore-\(getpid())"
        do {
            try FolderOwnerAccess.run(as: access) {
                unlink(temporary) // left by a restore that died, since we hold the lock
                try BackupFile.copy(source, named: file, to: temporary, mode: 0o600)
            }
            try reader.check(temporary, file, owner, knownOwners)
            let old = try FolderOwnerAccess.run(as: access) {
                for suffix in ["-wal", "-shm"] { unlink(temporary + suffix) } // the check's, if any
                // A -wal that is not a plain one-name file (a planted link) holds none of the store's
                // commits: it is not kept, and goes with the -shm below.
                let wal = (try? FolderOwnerAccess.openPlainFileIfAny(path + "-wal")) ?? nil
                return (main: try FolderOwnerAccess.openPlainFileIfAny(path), wal: wal)
            }
            defer {
                old.main.map { _ = close($0) }
                old.wal.map { _ = close($0) }
            }
            let kept = try old.main.map { main in
                try keepWhole(main, wal: old.wal, of: path, in: keptFolder, as: access, reader: reader)
            }
            try FolderOwnerAccess.run(as: access) {
                for suffix in ["-wal", "-shm"] where unlink(path + suffix) != 0 && errno != ENOENT {
                    throw StoreError.system("cannot remove \(path + suffix)")
                }
                try syncAndRename(temporary, to: path)
            }
            return kept
        } catch {
            _ = try? FolderOwnerAccess.run(as: access) { unlink(temporary) }
            throw error
        }
    }

    /// Keeps the store open as `main` (and its `-wal`, open as `wal`) whole, under a new name for
    /// `path`'s store in `keptFolder` (root's own), or in the store's folder when nil. The copy is
    /// made beside the store as its folder's owner, checkpointed there by `reader` so its main
    /// file alone is whole (one SQLite cannot read is kept as its files are, the `-wal` beside
    /// it), then copied out, holes kept as holes. Refused when a folder it goes through has less
    /// free space than the store's data. Returns the kept copy's path.
    static func keepWhole(
        _ main: Int32, wal: Int32?, of path: String, in keptFolder: String?, as access: FolderOwnerAccess.Owner,
        reader: UntrustedStoreReader
    ) throws -> String {
        let folder = BackupFile.folder(of: path)
        let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
        let stem = name.hasSuffix(".sqlite") ? String(name.dropLast(".sqlite".count)) : name
        // Bounded by the space the folders have: a sparse store costs its data, never its length.
        let walData = try wal.map { try BackupFile.dataBytes(of: $0, named: path + "-wal") } ?? 0
        let data = try BackupFile.dataBytes(of: main, named: path) + walData
        for place in Set([folder, keptFolder ?? folder]) {
            if let free = BackupFile.freeBytes(in: place), data > free {
                throw StoreError(
                    .tooLarge,
                    "\(place) has \(free) bytes free, and the store to keep holds \(data): free some space first")
            }
        }
        let staged = "\(path).keep-\(getpid())"
        let clear = { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(staged + suffix) } }
        try FolderOwnerAccess.run(as: access) {
            clear() // left by a restore that died, since the caller holds the store's lock
            try BackupFile.copy(main, named: path, to: staged, mode: 0o600)
            if let wal { try BackupFile.copy(wal, named: path + "-wal", to: staged + "-wal", mode: 0o600) }
        }
        defer { _ = try? FolderOwnerAccess.run(as: access) { clear() } }
        reader.checkpoint(staged)
        // What the checkpoint left, taken as the folder's owner: plain one-name files alone.
        let (keptMain, keptWal) = try FolderOwnerAccess.run(as: access) {
            (
                try FolderOwnerAccess.openPlainFileIfAny(staged),
                (try? FolderOwnerAccess.openPlainFileIfAny(staged + "-wal")) ?? nil
            )
        }
        defer {
            keptMain.map { _ = close($0) }
            keptWal.map { _ = close($0) }
        }
        guard let keptMain else { throw StoreError(.system, "the copy of \(path) to keep went missing from \(folder)") }
        let copyOut = { () throws -> String in
            let kept = BackupFile.unused(
                "\(keptFolder ?? folder)/\(stem).before-restore-\(BackupFile.timestamp()).sqlite")
            try BackupFile.copy(keptMain, named: staged, to: kept, mode: 0o600)
            if let keptWal { try BackupFile.copy(keptWal, named: staged + "-wal", to: kept + "-wal", mode: 0o600) }
            try BackupFile.sync(kept)
            return kept
        }
        return keptFolder == nil ? try FolderOwnerAccess.run(as: access, copyOut) : try copyOut()
    }

    /// Folds `file`'s `-wal` into it and leaves it in rollback-journal mode, so its main file
    /// alone is whole; a file SQLite cannot read is left as it is.
    static func checkpointWhole(_ file: String) {
        do {
            let copy = try DatabaseQueue(path: file, configuration: Self.untrustedFile(readonly: false))
            try copy.writeWithoutTransaction { db in
                _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            }
            try copy.close()
        } catch {
            // Damaged beyond SQLite's reading: kept as its files are, the -wal beside it.
        }
    }

    /// How the supervisor opens a store a vertical wrote (a backup to check, a replaced store to
    /// keep): its schema is the vertical's, so nothing in it runs (no function or virtual table a
    /// view or trigger names, `trusted_schema = OFF`), and a damaged page is refused before it is
    /// read (`cell_size_check`). What a vertical's bytes can still make of SQLite's C parser in
    /// the supervisor's process is said in docs/SECURITY.md.
    static func untrustedFile(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.qos = SQLiteStore.queueQoS
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON")
        }
        return configuration
    }

    /// Throws unless `file` (a copy of the backup `source`, which errors name) opens as an SQLite
    /// store that passes `PRAGMA integrity_check` and belongs to `owner` or to no vertical yet.
    static func checkBackup(_ file: String, named source: String, of owner: StoreOwner, knownOwners: [String]) throws {
        let configuration = Self.untrustedFile(readonly: true)
        let verdict: String
        do {
            let queue = try DatabaseQueue(path: file, configuration: configuration)
            defer { try? queue.close() }
            verdict = try queue.read { db in
                let verdict = try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer"
                if verdict == "ok" { try owner.check(db, path: source, candidates: { knownOwners }) }
                return verdict
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.notAStore, "\(source) is not an SQLite store: \(error)", cause: error)
        }
        guard verdict == "ok" else { throw StoreError(.notAStore, "\(source) is damaged: \(verdict)") }
    }
}
