import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// The supervisor's record of the Litestream process that copies one service's store to its
/// replica: where it is in its life (``ReplicaStateMachine``), its process, and the handles that
/// outlive its processes (its output pipes, its timers). Part of its ``ServiceUnit``: only the
/// engine touches it, inside its isolation.
final class ReplicaUnit {
    /// Where it is in its life: every change is an event fed to it
    /// (``SupervisorEngine/transitionReplica(_:_:)``).
    var machine: ReplicaStateMachine
    var child: ChildProcess?
    var pid: Int32?
    /// How its last process ended, or why it does not run, in words.
    var lastExit = ""
    /// Callbacks waiting for its process to be gone (a restore, a stop of its service, `down`).
    var stopWaiters: [() -> Void] = []
    /// Its stdout and stderr pipes, made at its first start and kept across restarts; their lines
    /// go to the service's log as the `litestream` stream.
    var output: HeldOutput?
    /// Backoff or stop timeout: one at a time, so one timer.
    let timer: LoopTimer
    /// Fires `backoff.resetAfter` after a start that followed a failure, to prove the run healthy.
    let forgiveness: LoopTimer

    init(spec: ServiceSpec, loop: EventLoop) {
        machine = ReplicaStateMachine(backoff: spec.backoff, budget: spec.budget)
        timer = LoopTimer(loop: loop)
        forgiveness = LoopTimer(loop: loop)
    }

    /// Every timer of it, to close together.
    var timers: [LoopTimer] { [timer, forgiveness] }

    /// Whether no process of it runs, nor is about to.
    var isGone: Bool { machine.state == .stopped || machine.state == .failed }

    /// What `status` shows.
    func status(now: ContinuousClock.Instant) -> Supervisor.ReplicaStatus {
        Supervisor.ReplicaStatus(
            state: machine.state.wire, pid: pid.map(Int.init),
            runningSince: machine.runningSince.map { Timestamp.now.adding(.zero - (now - $0)) },
            restarts: machine.restarts, lastExit: lastExit, exitReason: machine.exitReason,
            backoffRemainingSeconds: machine.state == .backoff ? timer.remaining.map(ServiceUnit.seconds) : nil)
    }
}
