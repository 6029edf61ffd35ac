import VerticalsEventLoop
import VerticalsServiceKit

// The ownership walk of a service's folders, off the loop: a vertical can fill its folders with
// entries, and the loop answers `status` and every other service meanwhile.
extension SupervisorEngine {
    /// Starts the walk that gives `unit`'s state and runtime folders to its user, when the top of
    /// either shows it is needed, on the framework's blocking threads; the spawn follows once it
    /// is done. Returns false when there is nothing to walk (the spawn goes on at once).
    func giveFolders(_ unit: ServiceUnit) -> Bool {
        guard !unit.givingFolders, configuration.serviceUsers != nil, let identity = try? identity(of: unit.spec)
        else { return false }
        let run = configuration.runDirectory
        let (uid, gid) = (identity.user.uid, identity.user.gid)
        let folders = [run.stateDirectory(for: unit.spec.name), run.runtimeDirectory(for: unit.spec.name)].filter {
            TreeOwnership.isNeeded($0, uid: uid, gid: gid)
        }
        guard !folders.isEmpty else { return false }
        unit.givingFolders = true
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
                    failure = "\(error)"
                }
                self.foldersGiven(unit, failure: failure)
            }
        }
        return true
    }

    /// The walk of ``giveFolders(_:)`` ended.
    private func foldersGiven(_ unit: ServiceUnit, failure: String?) {
        unit.givingFolders = false
        resumeSpawn(unit, failure: failure.map { "cannot start: \($0)" })
    }

    /// A step a spawn waited for off the loop ended: the spawn goes on if the unit still starts
    /// (or fails to start, with `failure`); a stop asked meanwhile ends it as a process that ran
    /// and stopped would.
    func resumeSpawn(_ unit: ServiceUnit, failure: String?) {
        guard unit.child == nil else { return }
        switch unit.machine.state {
        case .starting:
            if let failure {
                failedToStart(unit, failure)
            } else {
                spawn(unit)
            }
        case .stopping:
            unit.timer.stop()
            let exit = ServiceStateMachine.Exit(
                success: true, limit: false, restartCannotHelp: false, wasReady: false,
                socketHeld: unit.listeningFD != nil)
            transition(unit) { $0.exited(exit, at: .now) }
        default:
            break
        }
    }
}
