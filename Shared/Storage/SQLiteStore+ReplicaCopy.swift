#if canImport(Glibc)
import Glibc
#endif
import GRDB

extension SQLiteStore {
    /// The name of the copy of a store that `litestream restore` writes beside it, in the store's
    /// own folder, for ``placeReplicaCopy(directory:fileName:owner:migrator:)`` to check and put in
    /// place: `<name>.from-replica.sqlite` for the store `<name>.sqlite` (the name svc-supervisor
    /// uses for its own first-start restore).
    public static func replicaCopyName(of fileName: String) -> String {
        "\(stem(of: fileName)).from-replica.sqlite"
    }

    /// Where a copy that failed a check is kept aside: `<name>.from-replica.refused.sqlite`, one
    /// file (a later refusal replaces it), so a restore retried in a loop cannot fill the disk.
    public static func refusedReplicaCopyName(of fileName: String) -> String {
        "\(stem(of: fileName)).from-replica.refused.sqlite"
    }

    /// A daemon's `--place-replica-copy`: puts the copy of its store that Litestream restored from
    /// the replica (``replicaCopyName(of:)``, in `directory`) in place of the store, through every
    /// check of a backup's restore (``restore(_:to:owner:knownOwners:keepIn:fileInFolder:reader:)``:
    /// a plain file with one name, no link on the way; a whole SQLite store, `PRAGMA
    /// integrity_check`; of `owner` or of no vertical yet), and one more that a backup's restore
    /// leaves to the daemon's start: no migration this build does not know (`migrator`). The
    /// store is made owner-only (0600) by the process, the vertical's user, and renamed into
    /// place in one step; the copy is removed after.
    ///
    /// A replica written by a less-trusted place (an SFTP host, a bucket) can hold any file, so
    /// the copy is never opened as the store before it passed. One that fails is moved aside as
    /// ``refusedReplicaCopyName(of:)`` and no store is made: the vertical does not start on it,
    /// nor on an empty store.
    ///
    /// Nothing to place is no failure: no copy (the replica held none yet, a first deploy), or a
    /// store already there (the copy is removed, the store left as it is).
    /// - Returns: what was done, one line for the operator.
    /// - Throws: ``StoreError`` naming the check the copy failed and where it is kept.
    public static func placeReplicaCopy(
        directory: String, fileName: String, owner: StoreOwner? = nil, migrator: DatabaseMigrator
    ) throws -> String {
        let path = "\(directory)/\(fileName)"
        let copy = "\(directory)/\(replicaCopyName(of: fileName))"
        guard present(copy) else {
            return "no copy of the store in \(directory) (its replica held none yet): nothing placed"
        }
        guard !present(path) else {
            removeCopy(copy)
            return "\(path) is there already: the copy restored from the replica was removed, not placed"
        }
        let owner = owner ?? StoreOwner(fileName: fileName)
        do {
            try restore(
                copy, to: path, owner: owner, knownOwners: siblingOwners(of: directory), fileInFolder: true,
                reader: checkingSchema(of: migrator))
        } catch let error as StoreError {
            let refused = "\(directory)/\(refusedReplicaCopyName(of: fileName))"
            let kept = rename(copy, refused) == 0 ? "it is kept as \(refused)" : "it is left as \(copy)"
            throw StoreError(
                error.code,
                "the copy of the store restored from its replica failed the checks of a restore (\(error.message)); "
                    + "\(kept), and no store was placed: check the replica, or restore the store from a backup",
                details: error.details, cause: error)
        }
        removeCopy(copy)
        return "placed the copy restored from its replica as \(path), checked"
    }

    /// ``UntrustedStoreReader/inProcess``, whose check also refuses a store with migrations
    /// `migrator` does not know.
    static func checkingSchema(of migrator: DatabaseMigrator) -> UntrustedStoreReader {
        let reader = UntrustedStoreReader.inProcess
        return UntrustedStoreReader(
            check: { file, source, owner, known in
                try reader.check(file, source, owner, known)
                let queue = try DatabaseQueue(path: file, configuration: untrustedFile(readonly: true))
                defer { try? queue.close() }
                try refuseNewerSchema(queue, migrator: migrator, path: source)
            },
            checkpoint: reader.checkpoint)
    }

    /// The store file's name without `.sqlite`.
    private static func stem(of fileName: String) -> String {
        fileName.hasSuffix(".sqlite") ? String(fileName.dropLast(".sqlite".count)) : fileName
    }

    /// Whether anything (a link not followed) is at `path`.
    private static func present(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || errno != ENOENT
    }

    /// Removes the copy and what SQLite may have left beside it.
    private static func removeCopy(_ copy: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(copy + suffix) }
    }
}
