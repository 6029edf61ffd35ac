#if canImport(Glibc)
import Glibc
#endif
import VerticalsWire

extension SupervisorEngine {
    /// Whether the spawn of `unit` waits for its store to come back from its replica: it has a
    /// replica, a Litestream to run, and no store file yet (its first start on this host, as on
    /// a host that replaces a lost one). Else its Litestream would ship the new, empty store to
    /// the replica as its latest copy.
    ///
    /// `litestream restore -if-replica-exists` runs as in ``restoreStoreFromReplica(_:at:)``,
    /// off the loop, straight into the store's path; the spawn follows it. A replica that holds
    /// no copy yet (a first deploy) leaves no file, and the vertical makes a new store. A
    /// Litestream that fails is a failed start, which says what failed and what to do: never a
    /// start with an empty store. Without a Litestream program the vertical starts as it would,
    /// and its replica's `status` says why it is not replicated.
    func restoreFirstStore(_ unit: ServiceUnit) -> Bool {
        if unit.firstStoreRestored {
            unit.firstStoreRestored = false
            return false
        }
        guard !unit.restoringFirstStore, let target = unit.spec.replica, let program = configuration.litestreamProgram
        else { return false }
        let store = storePath(unit.spec.name)
        guard !Self.exists(store) else { return false }
        unit.restoringFirstStore = true
        unit.log.note("no store yet: restoring \(store) from its replica before the first start, off the loop")
        // Isolated to the engine (whose executor is the loop), as the folders' walk is.
        Task {
            await withTaskExecutorPreference(loop) {
                var failure: String?
                do {
                    _ = try await self.runLitestreamRestore(
                        unit, target, program: program, output: store, ifReplicaExists: true)
                } catch {
                    failure = (error as? ServiceError)?.message ?? "\(error)"
                }
                self.firstStoreRestoreEnded(unit, store: store, failure: failure)
            }
        }
        return true
    }

    /// The restore of ``restoreFirstStore(_:)`` ended: one line says what it did, then the spawn
    /// goes on, or fails to start with what failed.
    private func firstStoreRestoreEnded(_ unit: ServiceUnit, store: String, failure: String?) {
        unit.restoringFirstStore = false
        let name = unit.spec.name
        guard failure == nil else {
            resumeSpawn(unit, failure: "not started, its store not restored: \(failure ?? "")")
            return
        }
        unit.firstStoreRestored = true
        if Self.exists(store) {
            unit.log.note("restored \(store) from its replica before the first start")
            logger.notice("restored \(name)'s store from its replica before its first start")
        } else {
            unit.log.note("its replica holds no copy yet: \(name) starts with a new store")
            logger.notice("\(name): its replica holds no copy yet: it starts with a new store")
        }
        resumeSpawn(unit, failure: nil)
    }

    /// Whether a file (or anything else, a link not followed) is at `path`.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || errno != ENOENT
    }
}
