import Testing

@testable import vt_fuzz_live

/// How `make fuzz-cost` judges a loop hold from the probes' figure and the loop thread's own
/// times: a hold counts when the loop's work can explain it, so a busy machine's waits for a
/// processor are not taken for an input's cost, and a quiet machine's holds are judged whole.
@Suite struct CostBudgetsTests {
    let budgets = CostBudgets()

    func cost(hold: Double, ran: Double?, waited: Double?) -> InputCost {
        var cost = InputCost()
        cost.loopHold = .microseconds(Int64(hold * 1000))
        cost.loopRan = ran.map { .microseconds(Int64($0 * 1000)) }
        cost.loopWaited = waited.map { .microseconds(Int64($0 * 1000)) }
        return cost
    }

    func counted(_ cost: InputCost) -> Bool {
        budgets.problem(.loopHold, cost, again: cost, operation: "clinics.list") != nil
    }

    @Test func aHoldOnAQuietMachine_countsWhole() {
        let held = cost(hold: 15, ran: 14, waited: 0.2)
        #expect(counted(held))
        #expect(!budgets.excusesHold(held))
    }

    @Test func aHoldUnderBudget_countsNothing() {
        let quick = cost(hold: 9.9, ran: 50, waited: 0)
        #expect(!counted(quick))
        #expect(!budgets.excusesHold(quick))
    }

    @Test func aHoldWhileTheLoopRanUnderBudget_isExcused() {
        let held = cost(hold: 30, ran: 4, waited: 0)
        #expect(!counted(held))
        #expect(budgets.excusesHold(held))
    }

    /// A password hash on a busy machine: the loop ran long over the window (its probes' turns
    /// add up) and waited longer still for a processor, which explains the hold.
    @Test func aHoldItsWaitsForAProcessorExplain_isExcused() {
        let held = cost(hold: 28.9, ran: 1252.6, waited: 2478.7)
        #expect(!counted(held))
        #expect(budgets.excusesHold(held))
    }

    @Test func aHoldPastWhatItsWaitsExplain_counts() {
        let held = cost(hold: 40, ran: 60, waited: 25)
        #expect(counted(held))
        #expect(!budgets.excusesHold(held))
    }

    @Test func aHoldWhoseLoopTimesCannotBeRead_countsWhole() {
        #expect(counted(cost(hold: 11, ran: nil, waited: nil)))
        #expect(counted(cost(hold: 11, ran: 20, waited: nil)))
    }

    @Test func aDebugBuildsHolds_areNotJudged() {
        var sizesOnly = CostBudgets()
        sizesOnly.judgesTime = false
        let held = cost(hold: 500, ran: 500, waited: 0)
        #expect(sizesOnly.problem(.loopHold, held, again: held, operation: "clinics.list") == nil)
        #expect(!sizesOnly.excusesHold(held))
    }
}
