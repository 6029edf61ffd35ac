// What the core knows of an upgrade: while it runs, in its case (``ServiceStateMachine/Phase/upgrading(_:)``),
// so none of it outlives the upgrade; once it has ended, how, in the one record of the last
// upgrade (``ServiceStateMachine/lastUpgrade``).
extension ServiceStateMachine {
    /// An upgrade under way: true only while it runs (``UpgradeRun`` keeps its new process's
    /// handle and its caller's answer).
    struct Upgrade: Sendable, Hashable {
        /// Where it is.
        var stage: UpgradeStage
        /// Its old and new process, as its status names them.
        let processes: UpgradeProcesses
        /// What `status` said as it began: said again when it fails before the hand-over.
        let statusBefore: Status
        /// When the new process started: its uptime once it is promoted (nil in a machine built
        /// in an upgrade's state, for tests).
        let startedAt: ContinuousClock.Instant?
        /// When the new process said `READY=1` (or, without a readiness protocol, was started):
        /// nil until it has. The one record of its readiness: the hand-over, the promotion and
        /// the upgrade's answer (its gap) read it here.
        var readyAt: ContinuousClock.Instant?
        /// When the old process was told to stop accepting, or was gone before it was told: nil
        /// while it prepares.
        var handOverAt: ContinuousClock.Instant?
        /// When the old process was gone, for the answer's drain time: nil while it serves or drains.
        var oldExitedAt: ContinuousClock.Instant?
        /// Whether the new process was killed for its deadline: what it says until its exit
        /// comes is too late to count.
        var newProcessKilled = false
        /// The copy of the store the new process took before migrating it
        /// (`X_VERTICALS_STORE_BACKUP=`): what its rollback puts back, and what its answer names.
        var backup: String?
        /// Why the new process failed after the hand-over, once it has (``UpgradeStage/newProcessFailed``).
        var failure: String?

        /// An upgrade whose new process has just started beside the old one, which serves.
        init(processes: UpgradeProcesses, statusBefore: Status, startedAt: ContinuousClock.Instant) {
            self.init(stage: .preparing, processes: processes, statusBefore: statusBefore, startedAt: startedAt)
        }

        /// An upgrade at `stage`, for a machine built in that state (tests).
        init(
            stage: UpgradeStage, processes: UpgradeProcesses, statusBefore: Status = .none,
            startedAt: ContinuousClock.Instant? = nil
        ) {
            self.stage = stage
            self.processes = processes
            self.statusBefore = statusBefore
            self.startedAt = startedAt
        }
    }

    /// How an upgrade ended, for what is said once its case is gone (its answer, its rollback).
    enum UpgradeEnd: Sendable, Hashable {
        /// Its new process failed, for `reason` ("exited with status 1"): before the hand-over the
        /// old one serves on; after it, the previous executable starts again.
        case failed(reason: String)
        /// A stop abandoned it. Its caller is answered exactly once (then `answered`), by
        /// whichever of its processes ends first that settles it; `afterHandOver`: the old
        /// process had been told to go, or was gone, when the stop came.
        case abandoned(afterHandOver: Bool, answered: Bool)

        /// Why its new process failed, if it did.
        var failure: String? {
            if case .failed(let reason) = self { return reason }
            return nil
        }
    }
}
