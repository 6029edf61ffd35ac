import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsWire

extension SupervisorEngine {
    /// Puts the backup `file` in place of stopped service `name`'s store (`<run>/state/NAME/NAME.sqlite`)
    /// and returns where the store is and where the one it replaced was kept whole.
    ///
    /// The supervisor does it, not the operator's own process: the state folder belongs to the
    /// service's user (mode 0700) when services run as their own users, and the action is one
    /// audit line beside start and stop. The service must be stopped or failed (`conflict`
    /// otherwise), and may not be started until the restore is done; `file` must be a whole store
    /// of this vertical (`invalidInput` naming what is wrong, see `SQLiteStore.restore`).
    ///
    /// `file` is taken as a vertical's path would be: no link on the way, read as the owner of the
    /// first folder that is not root's, a plain file with one name. The replaced store is kept in
    /// the supervisor's own `<run>/replaced/NAME/` (0700), never in the vertical's folder.
    public func restoreStore(_ name: String, from file: String) async throws -> Supervisor.RestoreResult {
        guard file.hasPrefix("/") else {
            throw ServiceError(
                .invalidInput, "the backup must be an absolute path, not \"\(file)\"",
                details: [ErrorDetail("field", "file")])
        }
        let unit = try unit(name)
        guard unit.machine.refusal(of: .restore) != .notStopped else {
            throw ServiceError(
                .conflict, "\(name) is \(unit.state): stop it first (svc-supervisor stop \(name)), then restore")
        }
        try refuseWhileRestoring(unit, "restore")
        transition(unit) { $0.restoreBegun() }
        defer {
            if let unit = units[name] { transition(unit) { $0.restoreEnded(saying: nil) } }
        }
        // Nothing may hold the store while a file is renamed over it: its Litestream stopped
        // on entering the restore, and is gone before the file is touched.
        await replicaGone(unit)
        let result = try await placeStore(file, of: unit)
        logger.notice(
            "restored \(result.path) from \(file)\(result.kept.map { "; the replaced store is kept as \($0)" } ?? "")")
        return result
    }

    /// Puts `file` in place of `unit`'s store through every check of a backup's restore
    /// (``SQLiteStore/restore(_:to:owner:knownOwners:keepIn:fileInFolder:reader:)``): a whole
    /// SQLite store (`PRAGMA integrity_check`, read as the vertical's user: see
    /// ``untrustedStoreReader(for:)``) of this vertical's or of none yet, renamed over the store
    /// in its folder as the folder's owner, the store it replaces kept whole in root's
    /// `<run>/replaced/NAME/`. With `fileInFolder`, `file` must sit in the store's own folder.
    /// Runs off the loop; the caller makes sure nobody holds the store.
    /// - Throws: ``ServiceError``: `invalidInput` naming what is wrong with `file`, `conflict`
    ///   naming the process that holds the store, `internal` when the reader or root's folder
    ///   cannot be had.
    func placeStore(_ file: String, of unit: ServiceUnit, fileInFolder: Bool = false) async throws
        -> Supervisor.RestoreResult
    {
        let name = unit.spec.name
        let path = storePath(name)
        let known = order
        let reader: UntrustedStoreReader
        let keptFolder: String
        do {
            reader = try untrustedStoreReader(for: unit)
            keptFolder = try configuration.runDirectory.prepareReplacedStores(for: name)
        } catch {
            throw ServiceError(.internal, "cannot restore \(name): \(error)")
        }
        do {
            let kept = try await Offload.run {
                try SQLiteStore.restore(
                    file, to: path, owner: StoreOwner(name), knownOwners: known, keepIn: keptFolder,
                    fileInFolder: fileInFolder, reader: reader)
            }
            return Supervisor.RestoreResult(path: path, kept: kept)
        } catch let error as StoreError {
            throw ServiceError(
                error.code == .held ? .conflict : .invalidInput, "cannot restore \(name): \(error.message)")
        }
    }

    /// How a store `unit`'s vertical wrote is read: in a child as its user when it has one, started
    /// as the vertical is (``StoreReaderChild``), else in this process.
    func untrustedStoreReader(for unit: ServiceUnit) throws -> UntrustedStoreReader {
        guard let program = configuration.storeReader, let identity = try identity(of: unit.spec) else {
            return .inProcess
        }
        let user = ["--user", String(identity.user.uid), "--group", String(identity.user.gid)]
        return StoreReaderChild(
            execShim: configuration.execShim, program: program, options: execOptions(for: unit) + user
        )
        .reader
    }

    /// Refuses `action` of `unit` with `conflict` while a backup is put in place of its store.
    func refuseWhileRestoring(_ unit: ServiceUnit, _ action: String) throws(ServiceError) {
        guard unit.machine.refusal(of: .start) == .restoring else { return }
        throw ServiceError(.conflict, "cannot \(action) \(unit.spec.name): a backup is being put in place of its store")
    }
}
