import VerticalsContract

/// The life of the Litestream process that copies one vertical's store to its `replica`, as a
/// value: its state, whether it is wanted, its restart accounting and how its last process ended.
/// One `mutating` function per event returns the ``Action``s the engine performs; nothing inside
/// does I/O or reads a clock, so every state × event pair is a plain unit test
/// (`ReplicaStateMachineTests`), as for ``ServiceStateMachine``.
///
/// A machine of its own beside the vertical's, not states of the vertical's: Litestream has no
/// readiness, socket, upgrade or restore of its own, and its failures never restart the vertical
/// (nor spend its budget). What ties the two together is one rule, decided here and nowhere else
/// (``verticalEntered(_:)``): it runs once the vertical is ready (its store exists), keeps running
/// while the vertical restarts after a crash, and stops when the vertical is down (stopped, failed,
/// idle, stopping as asked) or its store is being restored, so nothing holds the store while a
/// file is renamed over it. An upgrade's hand-over does not stop it: the store stays in place.
///
/// It restarts after an exit with the vertical's own backoff and restart budget (a
/// ``RestartLedger`` of its own): a replica that keeps failing stays down (`failed`) until the
/// vertical is ready again, and a missing `litestream` program is not retried at all: the vertical
/// runs on, and `status` says why its store is not replicated.
///
/// ```swift
/// var replica = ReplicaStateMachine(backoff: spec.backoff, budget: spec.budget)
/// replica.verticalEntered(.ready)          // [.spawn], state .starting
/// replica.spawned(at: now)                  // [.armForgiveness], state .running
/// replica.exited(success: false, at: now)   // [.armBackoff(100 ms)], state .backoff
/// replica.verticalEntered(.stopping)        // [.cancelTimer, .notifyStopWaiters], state .stopped
/// ```
struct ReplicaStateMachine: Sendable, Equatable {
    /// Where Litestream is.
    enum State: Sendable, Hashable, CaseIterable {
        /// Not running, and not meant to until the vertical is ready.
        case stopped
        /// Its process is being started.
        case starting
        /// Its process runs.
        case running
        /// Its process ended; it starts again once the backoff has passed.
        case backoff
        /// Its process was sent its stop signal; the stop timeout's SIGKILL follows.
        case stopping
        /// It stays down until the vertical is ready again: its restart budget is spent, or its
        /// program cannot be found.
        case failed

        /// The state `status` shows.
        var wire: Supervisor.ReplicaState {
            switch self {
            case .stopped: .stopped
            case .starting: .starting
            case .running: .running
            case .backoff: .backoff
            case .stopping: .stopping
            case .failed: .failed
            }
        }
    }

    /// Why it stays down.
    enum GiveUp: Sendable, Hashable {
        /// `count` restarts already within the budget's window.
        case budgetSpent(count: Int)
        /// The `litestream` program is not there to run.
        case programMissing
    }

    /// What the engine does for a transition, in order.
    enum Action: Sendable, Hashable {
        /// Write the configuration and start Litestream; answer with ``spawned(at:)`` or
        /// ``spawnFailed(at:)``.
        case spawn
        /// Arm the replica's timer for its backoff; its expiry is ``backoffElapsed()``.
        case armBackoff(Duration)
        /// Arm the replica's timer for the stop timeout; its expiry is ``stopTimeoutElapsed()``.
        case armStopTimer
        /// Stop the replica's timer.
        case cancelTimer
        /// Arm the check that forgives the backoff of a healthy run (``aliveSeen(at:)``).
        case armForgiveness
        /// Stop the forgiveness check.
        case cancelForgiveness
        /// SIGTERM to Litestream's process group.
        case sendStopSignal
        /// SIGKILL to Litestream's process group (the stop timeout passed).
        case kill
        /// Call everyone waiting for Litestream to be gone (a restore).
        case notifyStopWaiters
        /// Say it stays down, and why.
        case giveUp(GiveUp)
    }

    private(set) var state: State = .stopped
    /// Whether it should run: set when the vertical is ready, cleared when it is down.
    private(set) var wanted = false
    /// Backoff and restart budget, the vertical's policy, its own count.
    private(set) var ledger: RestartLedger
    /// Restarts after an exit since the supervisor started.
    private(set) var restarts = 0
    /// Why its last process ended: nil until one has.
    private(set) var exitReason: Supervisor.ExitReason?
    /// The backoff before its next start, decided by the exit that put it in `backoff`.
    private(set) var backoffDelay: Duration = .zero
    /// Why it stays down, while `failed`.
    private(set) var gaveUp: GiveUp?

    /// Since when its process runs: nil while none does.
    var runningSince: ContinuousClock.Instant? { state == .running || state == .stopping ? ledger.readyAt : nil }

    /// A stopped replica of a vertical with `backoff` and `budget`.
    init(backoff: Backoff, budget: RestartBudget) {
        ledger = RestartLedger(backoff: backoff, budget: budget)
    }

    /// A machine already in `state`, for tests.
    init(state: State, wanted: Bool, backoff: Backoff, budget: RestartBudget) {
        self.init(backoff: backoff, budget: budget)
        self.state = state
        self.wanted = wanted
    }

    /// The vertical's policy changed (a reload): it applies from the next event on.
    mutating func configure(backoff: Backoff, budget: RestartBudget) {
        ledger.backoff = backoff
        ledger.budget = budget
    }

    // MARK: The vertical

    /// The vertical's machine entered `vertical`: ready, Litestream starts (afresh, if it had
    /// failed); down or restored, it stops; anything else (starting, waiting, backing off after a
    /// crash, an upgrade) leaves it as it is.
    mutating func verticalEntered(_ vertical: ServiceStateMachine.State) -> [Action] {
        switch vertical {
        case .ready:
            return start()
        case .stopped, .failed, .idle, .stopping, .restoring:
            return stop()
        case .waiting, .starting, .backoff, .upgrading:
            return []
        }
    }

    /// Wanted, with a fresh budget when it was down.
    private mutating func start() -> [Action] {
        wanted = true
        switch state {
        case .stopped, .failed:
            ledger.reset()
            gaveUp = nil
            state = .starting
            return [.spawn]
        case .starting, .running, .backoff, .stopping:
            return [] // a stop under way starts it again once the process is gone
        }
    }

    /// Not wanted: SIGTERM, SIGKILL after the stop timeout; the waiters hear once it is gone.
    private mutating func stop() -> [Action] {
        wanted = false
        switch state {
        case .starting, .running:
            state = .stopping
            return [.cancelForgiveness, .sendStopSignal, .armStopTimer]
        case .backoff:
            state = .stopped
            return [.cancelTimer, .notifyStopWaiters]
        case .stopping:
            return []
        case .stopped, .failed:
            return [.notifyStopWaiters]
        }
    }

    // MARK: Its process

    /// Litestream runs, from `now`.
    mutating func spawned(at now: ContinuousClock.Instant) -> [Action] {
        guard state == .starting else { return [] }
        state = .running
        ledger.spawned()
        ledger.becameReady(at: now) // no readiness protocol: it runs once started
        return [.armForgiveness]
    }

    /// Litestream could not be started: a failed exit.
    mutating func spawnFailed(at now: ContinuousClock.Instant) -> [Action] {
        guard state == .starting else { return [] }
        exitReason = .startFailed
        return afterFailure(at: now)
    }

    /// The `litestream` program is not there: it stays down, without a retry, and the vertical runs on.
    mutating func programMissing() -> [Action] {
        guard state == .starting else { return [] }
        exitReason = .startFailed
        return giveUp(.programMissing)
    }

    /// Its process ended (`success`: status 0).
    mutating func exited(success: Bool, at now: ContinuousClock.Instant) -> [Action] {
        ledger.processEnded()
        switch state {
        case .stopping:
            exitReason = .stop
            state = .stopped
            // Wanted again meanwhile (the vertical was ready again): it starts again first.
            guard wanted else { return [.cancelTimer, .notifyStopWaiters] }
            state = .starting
            return [.cancelTimer, .spawn, .notifyStopWaiters]
        case .running:
            exitReason = success ? .exit : .crash
            guard wanted else {
                state = .stopped
                return [.cancelForgiveness, .notifyStopWaiters]
            }
            return [.cancelForgiveness] + afterFailure(at: now)
        case .stopped, .starting, .backoff, .failed:
            return [] // no process of its to end
        }
    }

    /// Restarts within the budget, or gives up. Litestream is meant to run for as long as the
    /// vertical does, so any exit of a wanted one is a failure, whatever its status.
    private mutating func afterFailure(at now: ContinuousClock.Instant) -> [Action] {
        guard wanted else {
            state = .stopped
            return [.notifyStopWaiters]
        }
        switch ledger.afterExit(at: now) {
        case .giveUp(let count):
            return giveUp(.budgetSpent(count: count))
        case .restart(let delay):
            state = .backoff
            backoffDelay = delay
            restarts += 1
            return [.armBackoff(delay)]
        }
    }

    private mutating func giveUp(_ why: GiveUp) -> [Action] {
        state = .failed
        gaveUp = why
        return [.giveUp(why), .notifyStopWaiters]
    }

    /// The backoff passed.
    mutating func backoffElapsed() -> [Action] {
        guard state == .backoff, wanted else { return [] }
        state = .starting
        return [.spawn]
    }

    /// The stop timeout passed and the process is still there.
    mutating func stopTimeoutElapsed() -> [Action] {
        state == .stopping ? [.kill] : []
    }

    /// The forgiveness check found the process running at `instant` (read before the check).
    mutating func aliveSeen(at instant: ContinuousClock.Instant) -> [Action] {
        guard state == .running else { return [] }
        return ledger.sawAlive(at: instant) ? [] : [.armForgiveness]
    }
}
