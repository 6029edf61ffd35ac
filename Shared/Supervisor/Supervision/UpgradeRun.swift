import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// One `svc-supervisor upgrade` of a service, from the new process's start until it is ready or
/// the upgrade has failed. Part of the engine's state, like its ``ServiceUnit`` (see `SupervisorEngine+Upgrade`).
final class UpgradeRun {
    /// The program the new process runs.
    let program: String
    /// The manifest `executable` the unit runs once the upgrade is done (`--executable`, or the
    /// one it had): a later restart starts it.
    let executable: String
    /// The one the unit had: what a rollback starts again.
    let previousExecutable: String
    /// The process that served when the upgrade began.
    let oldPID: Int32
    /// The new process.
    let child: ChildProcess
    var pid: Int32 { child.pid }
    /// The uid the new process runs as (see ``ServiceUnit/uid``). Its start, stage, instants,
    /// kill and failure are the machine's (``ServiceStateMachine/Phase/upgrading(_:)`` while it
    /// runs, ``ServiceStateMachine/lastUpgrade`` once it has ended), and so is when it is answered.
    let uid: UInt32
    /// The new process's readiness deadline (to its hand-over signal, then to `READY=1`).
    let timer: LoopTimer
    /// Answers the `upgrade` call: the engine's handle, called when the machine says
    /// (``ServiceStateMachine/Action/answerUpgrade(_:)``), its rollback's included.
    private let answer: (Result<Supervisor.UpgradeResult, ServiceError>) -> Void

    init(
        program: String, executable: String, previousExecutable: String, oldPID: Int32, child: ChildProcess,
        uid: UInt32, loop: EventLoop,
        answer: @escaping (Result<Supervisor.UpgradeResult, ServiceError>) -> Void
    ) {
        self.program = program
        self.executable = executable
        self.previousExecutable = previousExecutable
        self.oldPID = oldPID
        self.child = child
        self.uid = uid
        self.timer = LoopTimer(loop: loop)
        self.answer = answer
    }

    /// Answers the call and stops the timer.
    func finish(_ result: Result<Supervisor.UpgradeResult, ServiceError>) {
        timer.stop()
        answer(result)
    }

    /// What the upgrade did, for its answer; `name` is the service's, `record` the machine's
    /// of this upgrade (when the new process started and became ready, the hand-over began and
    /// the old process was gone, the store's copy the new build took).
    func result(name: String, _ record: ServiceStateMachine.Upgrade) -> Supervisor.UpgradeResult {
        let ready = record.readyAt ?? .now
        let handOver = record.handOverAt ?? ready
        // A new process that served before the old one stopped accepting (no store to wait for)
        // left callers no gap at all.
        let gap = ready < handOver ? Duration.zero : ready - handOver
        let started = record.startedAt ?? min(handOver, ready)
        return Supervisor.UpgradeResult(
            name: name, oldPid: Int(oldPID), newPid: Int(pid), executable: program,
            prepareSeconds: ServiceUnit.seconds(min(handOver, ready) - started), gapSeconds: ServiceUnit.seconds(gap),
            drainSeconds: ServiceUnit.seconds((record.oldExitedAt ?? handOver) - handOver), backup: record.backup)
    }
}
