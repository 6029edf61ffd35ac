import Testing
@testable import VerticalsSupervisor

/// The restart policy as pure accounting: instants in, decisions out, no clock and no process.
@Suite struct RestartLedgerTests {
    let start = ContinuousClock.now
    let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))

    func ledger(restarts: Int = 100, window: Duration = .seconds(60)) -> RestartLedger {
        RestartLedger(backoff: backoff, budget: RestartBudget(maxRestarts: restarts, window: window))
    }

    func at(_ milliseconds: Int64) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    /// A ledger after `failures` failed runs, then a run that became ready at 1 s.
    func readyAfter(failures: Int) -> RestartLedger {
        var ledger = ledger()
        for run in 0..<failures {
            ledger.spawned()
            _ = ledger.afterExit(at: at(Int64(run)))
        }
        ledger.spawned()
        ledger.becameReady(at: at(1_000))
        return ledger
    }

    @Test func consecutiveFailures_growTheDelay_upToMax() {
        var ledger = ledger()
        var delays: [Duration] = []
        for run in 0..<7 {
            ledger.spawned()
            if case .restart(let delay) = ledger.afterExit(at: at(Int64(run) * 100)) { delays.append(delay) }
        }
        #expect(
            delays == [100, 200, 400, 800, 1600, 2000, 2000].map { Duration.milliseconds($0) })
    }

    @Test func aRunProvenAliveForResetAfter_startsTheBackoffOverAtInitial() {
        var ledger = readyAfter(failures: 3)
        #expect(ledger.forgivenessDue == at(11_000))
        let forgave = ledger.sawAlive(at: at(11_000))
        #expect(forgave)
        #expect(ledger.forgivenessDue == nil)
        let decision1 = ledger.afterExit(at: at(50_000))
        #expect(decision1 == .restart(after: .milliseconds(100)))
    }

    @Test func aCheckBeforeResetAfter_forgivesNothing() {
        var ledger = readyAfter(failures: 1)
        let early = ledger.sawAlive(at: at(10_999))
        #expect(!early)
        let decision2 = ledger.afterExit(at: at(11_000))
        #expect(decision2 == .restart(after: .milliseconds(200)))
    }

    /// supervisord's bug: the child died 50 ms after readiness, the supervisor noticed a minute
    /// later. Only an alive check forgives, and a dead child is never seen alive.
    @Test func anExitNoticedLongAfterReadiness_isStillAFailure() {
        var ledger = readyAfter(failures: 1)
        let decision3 = ledger.afterExit(at: at(61_000))
        #expect(decision3 == .restart(after: .milliseconds(200)))
    }

    /// Nothing to forgive, no check to schedule: an idle supervisor arms no timer for it.
    @Test func aFirstRunWithoutAFailure_hasNoForgivenessDue() {
        var ledger = ledger()
        ledger.spawned()
        ledger.becameReady(at: at(1_000))
        #expect(ledger.forgivenessDue == nil)
        ledger.reset()
        ledger.spawned()
        ledger.becameReady(at: at(2_000))
        #expect(ledger.forgivenessDue == nil)
        _ = ledger.afterExit(at: at(3_000))
        ledger.spawned()
        ledger.becameReady(at: at(4_000))
        #expect(ledger.forgivenessDue == at(14_000))
    }

    @Test func aRunThatNeverBecameReady_isNeverForgiven() {
        var ledger = ledger()
        ledger.spawned()
        #expect(ledger.forgivenessDue == nil)
        let forgave = ledger.sawAlive(at: at(100_000))
        #expect(!forgave)
    }

    @Test func theBudget_givesUpPastItsRestartsWithinTheWindow_andForgetsOldOnes() {
        var ledger = ledger(restarts: 3, window: .seconds(10))
        for milliseconds: Int64 in [0, 1_000, 2_000] {
            ledger.spawned()
            let decision4 = ledger.afterExit(at: at(milliseconds))
            #expect(decision4 != .giveUp(count: 3))
        }
        ledger.spawned()
        let decision5 = ledger.afterExit(at: at(3_000))
        #expect(decision5 == .giveUp(count: 3))
        #expect(ledger.restartsInWindow(at: at(3_000)) == 3)
        // The first restart leaves the window 10 s after it: one more is allowed.
        ledger.spawned()
        let decision6 = ledger.afterExit(at: at(10_001))
        #expect(decision6 != .giveUp(count: 2))
        #expect(ledger.restartsInWindow(at: at(10_001)) == 3)
    }

    @Test func aZeroBudget_givesUpAtTheFirstExit() {
        var ledger = ledger(restarts: 0)
        ledger.spawned()
        let decision7 = ledger.afterExit(at: at(0))
        #expect(decision7 == .giveUp(count: 0))
    }

    @Test func aFreshStart_clearsTheBudgetAndTheBackoff() {
        var ledger = ledger(restarts: 2)
        for run: Int64 in 0..<3 {
            ledger.spawned()
            _ = ledger.afterExit(at: at(run))
        }
        ledger.reset()
        ledger.spawned()
        let decision8 = ledger.afterExit(at: at(10))
        #expect(decision8 == .restart(after: .milliseconds(100)))
    }
}
