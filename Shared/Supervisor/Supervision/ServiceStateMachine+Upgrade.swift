// What the core knows of an upgrade: while it runs, in its case (``ServiceStateMachine/Phase/upgrading(_:)``),
// so none of it outlives the upgrade; once a stop has abandoned it, the one record kept until
// its caller is answered (``ServiceStateMachine/abandonedUpgrade``).
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
        /// When the new process said `READY=1` (or, without a readiness protocol, was started):
        /// nil until it has. The one record of its readiness: the hand-over, the promotion and
        /// the upgrade's answer (its gap) read it here.
        var readyAt: ContinuousClock.Instant?
        /// When the old process was told to stop accepting, or was gone before it was told: nil
        /// while it prepares.
        var handOverAt: ContinuousClock.Instant?
        /// Whether the new process was killed for its deadline: what it says until its exit
        /// comes is too late to count.
        var newProcessKilled = false
        /// The copy of the store the new process took before migrating it
        /// (`X_VERTICALS_STORE_BACKUP=`): what its rollback puts back, and what its answer names.
        var backup: String?
        /// Why the new process failed after the hand-over, once it has (``UpgradeStage/newProcessFailed``).
        var failure: String?

        /// An upgrade whose new process has just started beside the old one, which serves.
        init(processes: UpgradeProcesses, statusBefore: Status) {
            self.init(stage: .preparing, processes: processes, statusBefore: statusBefore)
        }

        /// An upgrade at `stage`, for a machine built in that state (tests).
        init(stage: UpgradeStage, processes: UpgradeProcesses, statusBefore: Status = .none) {
            self.stage = stage
            self.processes = processes
            self.statusBefore = statusBefore
        }
    }

    /// An upgrade a stop abandoned, whose caller is not answered yet: kept from the stop until
    /// the one ``Action/answerAbandonedUpgrade(afterHandOver:)``, so it is answered exactly once,
    /// by whichever of its processes ends first that settles it.
    struct AbandonedUpgrade: Sendable, Hashable {
        /// The old process had been told to go, or was gone, when the stop came.
        let afterHandOver: Bool
    }
}
