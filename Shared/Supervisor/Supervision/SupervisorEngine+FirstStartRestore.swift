#if canImport(Glibc)
import Glibc
#endif
import VerticalsManifest
import VerticalsStorage
import VerticalsWire

extension SupervisorEngine {
    /// Whether the spawn of `unit` waits for its store to come back from its replica: it has a
    /// replica, a Litestream to run, and no store file yet (its first start on this host, as on
    /// a host that replaces a lost one). Else its Litestream would ship the new, empty store to
    /// the replica as its latest copy.
    ///
    /// A replica is written by a less-trusted place (an SFTP host, a bucket), so what it holds is
    /// hostile until checked, as a backup is: `litestream restore -if-replica-exists` runs as in
    /// ``restoreStoreFromReplica(_:at:)``, off the loop, into `NAME.from-replica.sqlite` in the
    /// vertical's state folder, and that copy goes through every check of a backup's restore
    /// (``placeStore(_:of:fileInFolder:)``: integrity read as the vertical's user, the store's
    /// owner) before it is renamed over the store's path; it is removed after. The spawn follows.
    /// A replica that holds no copy yet (a first deploy) leaves no file, and the vertical makes a
    /// new store. A Litestream that fails, or a copy that fails a check, is a failed start, which
    /// says what failed and what to do: never a start on that copy, nor on an empty store.
    /// Without a Litestream program the vertical starts as it would, and its replica's `status`
    /// says why it is not replicated.
    func restoreFirstStore(_ unit: ServiceUnit) -> Bool {
        guard !unit.machine.preparing, !unit.machine.prepared.contains(.firstStoreRestored),
            let target = unit.spec.replica, let program = configuration.litestreamProgram
        else { return false }
        let store = storePath(unit.spec.name)
        guard !Self.exists(store) else { return false }
        transition(unit) { $0.preparationBegun(.firstStoreRestored) }
        unit.log.note("no store yet: restoring \(store) from its replica before the first start, off the loop")
        // Isolated to the engine (whose executor is the loop), as the folders' walk is.
        Task {
            await withTaskExecutorPreference(loop) {
                var restored = false
                var failure: String?
                do {
                    restored = try await self.restoreCheckedFirstStore(unit, target, program: program)
                } catch {
                    failure = (error as? ServiceError)?.message ?? "\(error)"
                }
                self.firstStoreRestoreEnded(unit, store: store, restored: restored, failure: failure)
            }
        }
        return true
    }

    /// Restores `unit`'s store from `target` into a copy beside it, checks the copy as a backup
    /// is checked and renames it over the store; the copy is gone after, whatever happened.
    /// Returns false when the replica holds no copy yet.
    /// - Throws: ``ServiceError`` saying what failed (Litestream, or a check of the copy, named)
    ///   and what to do.
    private func restoreCheckedFirstStore(_ unit: ServiceUnit, _ target: VerticalsManifest.Replica, program: String)
        async throws
        -> Bool
    {
        let name = unit.spec.name
        let folder = configuration.runDirectory.stateDirectory(for: name)
        let copy = "\(folder)/\(name).from-replica.sqlite"
        Self.removeRestoredCopy(copy, in: folder)
        defer { Self.removeRestoredCopy(copy, in: folder) }
        _ = try await runLitestreamRestore(unit, target, program: program, output: copy, ifReplicaExists: true)
        // Looked at as the folder's owner: a name the vertical planted there reaches nothing else.
        let made: Bool
        do {
            made = try FolderOwnerAccess.run(in: folder) { Self.exists(copy) }
        } catch {
            throw ServiceError(.internal, "cannot restore \(name) from its replica: \(error)")
        }
        guard made else { return false }
        do {
            _ = try await placeStore(copy, of: unit, fileInFolder: true)
        } catch let error as ServiceError where error.code == .invalidInput {
            throw ServiceError(
                .invalidInput,
                "the copy its replica holds failed the checks of a restore (\(error.message)), and nothing was put "
                    + "in its place: check the replica, or stop \(name) (svc-supervisor stop \(name)) and restore it "
                    + "from a backup (svc-supervisor restore \(name) FILE)")
        }
        return true
    }

    /// The restore of ``restoreFirstStore(_:)`` ended: one line says what it did, then the
    /// machine hears of its end (``ServiceStateMachine/preparationEnded(failure:at:)``), which
    /// says whether the spawn goes on or fails to start with what failed.
    private func firstStoreRestoreEnded(_ unit: ServiceUnit, store: String, restored: Bool, failure: String?) {
        let name = unit.spec.name
        if let failure {
            let said = "not started, its store not restored: \(failure)"
            transition(unit) { $0.preparationEnded(failure: said, at: .now) }
            return
        }
        if restored {
            unit.log.note("restored \(store) from its replica before the first start")
            logger.notice("restored \(name)'s store from its replica before its first start")
        } else {
            unit.log.note("its replica holds no copy yet: \(name) starts with a new store")
            logger.notice("\(name): its replica holds no copy yet: it starts with a new store")
        }
        transition(unit) { $0.preparationEnded(failure: nil, at: .now) }
    }

    /// Whether a file (or anything else, a link not followed) is at `path`.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || errno != ENOENT
    }
}
