// What the core knows of an upgrade: while it runs, in its case (``ServiceStateMachine/Phase/upgrading(_:)``),
// so none of it outlives the upgrade; once it has ended, how, in the one record of the last
// upgrade (``ServiceStateMachine/lastUpgrade``).
extension ServiceStateMachine {
    /// An upgrade under way: true only while it runs (``UpgradeRun`` keeps its new process's
    /// handle and the handle that answers its caller).
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
        /// When the old process started: the service's uptime until the new one is promoted.
        let oldStartedAt: ContinuousClock.Instant?
        /// When the new process said `READY=1` (or, without a readiness protocol, was started):
        /// nil until it has. The one record of its readiness: the hand-over, the promotion and
        /// the upgrade's answer (its gap) read it here.
        var readyAt: ContinuousClock.Instant?
        /// When the old process was told to stop accepting, or was gone before it was told: nil
        /// while it prepares.
        var handOverAt: ContinuousClock.Instant?
        /// When the old process was gone, for the answer's drain time: nil while it serves or drains.
        var oldExitedAt: ContinuousClock.Instant?
        /// Why the supervisor killed the new process, if it did: what it says until its exit
        /// comes is too late to count, and its exit fails the upgrade in these words.
        var kill: UpgradeKill?
        /// The copy of the store the new process took before migrating it
        /// (`X_VERTICALS_STORE_BACKUP=`): what its rollback puts back, and what its answer names.
        var backup: String?
        /// Why the new process failed after the hand-over, once it has (``UpgradeStage/newProcessFailed``).
        var failure: String?

        /// An upgrade whose new process has just started beside the old one, which serves.
        init(
            processes: UpgradeProcesses, statusBefore: Status, startedAt: ContinuousClock.Instant,
            oldStartedAt: ContinuousClock.Instant?
        ) {
            self.init(
                stage: .preparing, processes: processes, statusBefore: statusBefore, startedAt: startedAt,
                oldStartedAt: oldStartedAt)
        }

        /// An upgrade at `stage`, for a machine built in that state (tests).
        init(
            stage: UpgradeStage, processes: UpgradeProcesses, statusBefore: Status = .none,
            startedAt: ContinuousClock.Instant? = nil, oldStartedAt: ContinuousClock.Instant? = nil
        ) {
            self.stage = stage
            self.processes = processes
            self.statusBefore = statusBefore
            self.startedAt = startedAt
            self.oldStartedAt = oldStartedAt
        }

        /// When the service's own process of the upgrade started: the new one's once it is
        /// promoted (``UpgradeStage/finishing``), else the old one's, which serves or drains.
        var ownStartedAt: ContinuousClock.Instant? { stage == .finishing ? startedAt : oldStartedAt }
    }

    /// Why the supervisor killed an upgrade's new process: the words its end gives the upgrade's
    /// failure, whatever its exit status says.
    enum UpgradeKill: Sendable, Hashable {
        /// Its ready timeout passed: while it prepared, it neither waited for the store nor was
        /// ready; once it was the service's own (`afterHandOver`), it was not ready.
        case deadline(afterHandOver: Bool, timeout: Duration)
        /// A stop abandoned the upgrade before the new process was the service's own.
        case abandoned

        /// Why an upgrade is abandoned: the operator stopped, restarted or reloaded its service.
        static let abandonedBecause = "the service was stopped or restarted meanwhile"

        /// "not ready within 5 s of the hand-over".
        var words: String {
            switch self {
            case .deadline(afterHandOver: true, let timeout):
                "not ready within \(ServiceUnit.text(timeout)) of the hand-over"
            case .deadline(afterHandOver: false, let timeout):
                "neither waited for the store nor was ready within \(ServiceUnit.text(timeout))"
            case .abandoned:
                "killed: the upgrade was abandoned (\(Self.abandonedBecause))"
            }
        }
    }

    /// What an upgrade's caller is answered (``Action/answerUpgrade(_:)``), exactly once.
    enum UpgradeOutcome: Sendable, Hashable {
        /// The new process is the service's own and ready; with the upgrade's record (when its
        /// new process started and became ready, the hand-over began and the old process was gone).
        case upgraded(Upgrade)
        /// The new process ended while it prepared, for `reason`: the old one serves on.
        case failedBeforeHandOver(reason: String)
        /// A stop abandoned it, and the process that settles it has ended; `afterHandOver`: the
        /// old process had been told to go, or was gone.
        case abandoned(afterHandOver: Bool)
        /// The new process failed after the hand-over, for `reason`, and the previous executable
        /// was started again: it `serves` (ready), or failed too (failed, stopped or in backoff);
        /// `restored` says what became of the store's backup, when the new build made one.
        case rolledBack(reason: String, restored: String?, serves: Bool)
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
        /// Its new process failed after the hand-over, for `reason`: the previous executable
        /// starts again, once the store's backup is put back (its words, `restored`, once it
        /// is); its caller is answered exactly once (then `answered`), by the state that start
        /// reaches.
        case rollingBack(reason: String, restored: String?, answered: Bool)

        /// Why its new process failed, if it did.
        var failure: String? {
            switch self {
            case .failed(let reason), .rollingBack(let reason, _, _): reason
            case .abandoned: nil
            }
        }
    }
}
