#if canImport(Glibc)
import Glibc
#endif

/// The restart accounting of one service, as pure policy over instants the engine hands in:
/// exponential backoff that a healthy run forgives, and a windowed restart budget.
///
/// Forgiveness must not depend on scheduling. supervisord counts a child as started once its
/// poll finds it still "running" after `startsecs`, so a child that died early but was noticed
/// late counts as a success. Here a run is forgiven only on *proof*: ``sawAlive(at:)`` is
/// called with an instant taken *before* a check that found the process still running (not
/// even a zombie), so the process was alive at that instant whatever the loop's delays. An
/// exit never forgives, however long after readiness the supervisor notices it; a check that
/// comes late only delays the forgiveness, never grants it to a process already dead.
///
/// ```swift
/// var ledger = RestartLedger(backoff: spec.backoff, budget: spec.budget)
/// ledger.spawned()
/// ledger.becameReady(at: readyInstant)
/// _ = ledger.sawAlive(at: checkInstant)          // forgives once ready for backoff.resetAfter
/// switch ledger.afterExit(at: .now) { case .restart(let delay): …; case .giveUp: … }
/// ```
struct RestartLedger: Sendable, Equatable {
    /// What the ledger decides after an exit the restart policy wants restarted.
    enum Decision: Sendable, Equatable {
        /// Restart after this delay.
        case restart(after: Duration)
        /// The budget is spent: `count` restarts already within the window.
        case giveUp(count: Int)
    }

    var backoff: Backoff
    var budget: RestartBudget
    /// The exponent of the next backoff: failed runs since the last forgiveness or fresh start.
    private(set) var attempt = 0
    /// When each restart within the budget's window was decided.
    private(set) var restartTimes: [ContinuousClock.Instant] = []
    /// When the current run became ready; nil before, and after an exit.
    private(set) var readyAt: ContinuousClock.Instant?
    /// Whether the current run was proven healthy (alive for `resetAfter` after readiness).
    private(set) var forgiven = false

    init(backoff: Backoff, budget: RestartBudget) {
        self.backoff = backoff
        self.budget = budget
    }

    /// A start asked for (not a restart): a fresh budget and backoff.
    mutating func reset() {
        attempt = 0
        restartTimes.removeAll()
    }

    /// A new process of the service runs; it is not ready yet.
    mutating func spawned() {
        readyAt = nil
        forgiven = false
    }

    /// The process ended, whatever follows (a restart, a stop, an idle wait): it is not ready.
    mutating func processEnded() {
        readyAt = nil
        forgiven = false
    }

    /// The process reported ready at `instant` (or, without readiness, started then).
    mutating func becameReady(at instant: ContinuousClock.Instant) {
        readyAt = instant
    }

    /// When a check that the process is alive could first forgive this run; nil when there is
    /// nothing to forgive (no failed run since the last forgiveness or fresh start), so a service
    /// that never failed arms no timer and an idle supervisor does not wake for it.
    var forgivenessDue: ContinuousClock.Instant? {
        guard let readyAt, !forgiven, attempt > 0 else { return nil }
        return readyAt + backoff.resetAfter
    }

    /// The process was seen running at `instant` (taken before the check). Forgives the backoff
    /// when it had been ready for `backoff.resetAfter` by then; returns whether it forgave now.
    mutating func sawAlive(at instant: ContinuousClock.Instant) -> Bool {
        guard !forgiven, let readyAt, instant - readyAt >= backoff.resetAfter else { return false }
        forgiven = true
        attempt = 0
        return true
    }

    /// The process ended and the restart policy wants it back: the delay, or give up when
    /// `budget.maxRestarts` restarts already happened within `budget.window` before `now`.
    mutating func afterExit(at now: ContinuousClock.Instant) -> Decision {
        readyAt = nil
        forgiven = false
        restartTimes.removeAll { now - $0 > budget.window }
        guard restartTimes.count < budget.maxRestarts else { return .giveUp(count: restartTimes.count) }
        restartTimes.append(now)
        let delay = Self.delay(backoff, attempt: attempt)
        attempt += 1
        return .restart(after: delay)
    }

    /// Restarts decided within the window that ends at `now` (for `status`).
    func restartsInWindow(at now: ContinuousClock.Instant) -> Int {
        restartTimes.filter { now - $0 <= budget.window }.count
    }

    /// `initial × multiplier^attempt`, at most `max`.
    static func delay(_ backoff: Backoff, attempt: Int) -> Duration {
        let initial = ServiceUnit.seconds(backoff.initial)
        let seconds = min(
            initial * pow(max(backoff.multiplier, 1), Double(min(attempt, 1_000))), ServiceUnit.seconds(backoff.max))
        return .microseconds(Int64(seconds * 1_000_000))
    }
}
