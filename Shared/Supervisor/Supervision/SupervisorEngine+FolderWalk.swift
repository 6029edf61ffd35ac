import VerticalsEventLoop
import VerticalsServiceKit

// The ownership walk of a service's folders, off the loop: a vertical can fill its folders with
// entries, and the loop answers `status` and every other service meanwhile.
extension SupervisorEngine {
    /// Starts the walk that gives `unit`'s state and runtime folders to its user, when the top of
    /// either shows it is needed, on the framework's blocking threads; its start and its end are
    /// the machine's events (``ServiceStateMachine/preparationBegun(_:)``), whose actions say what
    /// follows. Returns false when there is nothing to walk (the spawn goes on at once).
    func giveFolders(_ unit: ServiceUnit) -> Bool {
        guard !unit.machine.preparing, !unit.machine.prepared.contains(.foldersGiven),
            configuration.serviceUsers != nil, let identity = try? identity(of: unit.spec)
        else { return false }
        let run = configuration.runDirectory
        let (uid, gid) = (identity.user.uid, identity.user.gid)
        let folders = [run.stateDirectory(for: unit.spec.name), run.runtimeDirectory(for: unit.spec.name)].filter {
            TreeOwnership.isNeeded($0, uid: uid, gid: gid)
        }
        guard !folders.isEmpty else { return false }
        transition(unit) { $0.preparationBegun(.foldersGiven) }
        unit.log.note("giving \(folders.joined(separator: " and ")) to uid \(uid), off the loop")
        // Isolated to the engine (whose executor is the loop), preferring the loop for the
        // nonisolated `Offload.run`, as restore does.
        Task {
            await withTaskExecutorPreference(loop) {
                var failure: String?
                do {
                    try await Offload.run {
                        for folder in folders { try TreeOwnership.give(folder, uid: uid, gid: gid) }
                    }
                } catch {
                    failure = "cannot start: \(error)"
                }
                self.transition(unit) { [failure] in $0.preparationEnded(failure: failure, at: .now) }
            }
        }
        return true
    }
}
