import VerticalsClient
import VerticalsContract
import VerticalsWire

/// What `make fuzz-cost` allows an input within the frame limits to cost (``InputCost``), and
/// which of the bounds hold whatever the build (`make test` checks those alone: a debug build's
/// times say nothing of a release's).
struct CostBudgets: Sendable {
    /// Whether loop holds are judged (a release build's run; never `make test`'s debug build).
    var judgesTime = true

    /// The longest a frame may hold a loop: 10 ms.
    static let loopHold = Duration.milliseconds(10)
    /// The most live heap one input may leave behind once answered, again when sent again: 64 KiB.
    static let heapGrowth = 64 << 10
    /// The most descriptors one input may leave open, again when sent again: a caller's first
    /// call to a callee opens its channel, and a store its files, once.
    static let descriptorGrowth = 0
    /// The largest answer of `daemon.health`, which carries what callees said (their findings):
    /// `CalleeContracts.healthMaxBytes` and room for the rest of the answer.
    static let healthAnswer = CalleeContracts.healthMaxBytes + 4096
    /// The largest answer of any operation: the frame limit every client reads with.
    static let anyAnswer = FrameDecoder.defaultMaxFrameSize

    /// The largest answer `operation` may give.
    static func answerLimit(_ operation: String) -> Int {
        operation == Daemon.health.fullName ? healthAnswer : anyAnswer
    }

    /// Whether the probes alone held `cost`'s loop over budget while the loop itself ran under
    /// it, or while it waited for a processor at least as long as the hold passed the budget: a
    /// hold the machine made, which ``problem(_:_:again:operation:)`` does not count and the
    /// report lists apart, so a reader sees what that condition takes away.
    func excusesHold(_ cost: InputCost) -> Bool {
        judgesTime && cost.loopHold > Self.loopHold && !Self.loopWorkedOverBudget(cost)
    }

    /// Whether the loop's own work can explain `cost`'s hold: it ran longer than the budget, and
    /// the hold passed the budget by more than the loop waited for a processor (a probe is
    /// delayed by the loop's work ahead of it and by the loop's waits to run, so the work held
    /// the loop at least the hold less those waits). When the loop's times cannot be read, the
    /// hold counts whole. On a quiet machine the loop waits for nothing and the hold is judged
    /// as it is; on a busy one, a hold is counted only where the waits cannot account for it
    /// (`make fuzz-cost REPLAY=…` measures one again).
    static func loopWorkedOverBudget(_ cost: InputCost) -> Bool {
        guard let ran = cost.loopRan else { return true }
        guard ran > loopHold else { return false }
        guard let waited = cost.loopWaited else { return true }
        return cost.loopHold - waited > loopHold
    }

    /// How `cost` of an input to `operation` breaks a budget, or nil when it holds. The heap and
    /// descriptors are judged on a second sending of the same input (`again`), so that a cache's
    /// first fill, or a callee's channel opened once, is not taken for a leak.
    func problem(_ kind: InputCost.Kind, _ cost: InputCost, again: InputCost?, operation: String) -> String? {
        switch kind {
        case .loopHold:
            // Over budget when the probes waited longer than it, and the loop's own work explains
            // that (``loopWorkedOverBudget(_:)``): a probe that waited while the loop waited for
            // a processor measured the machine, not the input.
            func over(_ cost: InputCost) -> Bool {
                cost.loopHold > Self.loopHold && Self.loopWorkedOverBudget(cost)
            }
            guard judgesTime, over(cost), over(again ?? cost) else { return nil }
            let times = [cost.loopTimes, again.map { $0.loopTimes + " sent again" } ?? ""].filter { !$0.isEmpty }
            return "held a loop \(cost.text(.loopHold)) (\(again?.text(.loopHold) ?? "?") sent again), "
                + "over \(Self.loopHold.microseconds / 1000) ms"
                + (times.isEmpty ? "" : "; " + times.joined(separator: "; "))
        case .heap:
            guard cost.heapGrowth > Self.heapGrowth, let again, again.heapGrowth > Self.heapGrowth else { return nil }
            return "left the live heap \(cost.text(.heap)) larger (\(again.text(.heap)) sent again), "
                + "over \(InputCost.bytes(Self.heapGrowth))"
        case .answer:
            let limit = Self.answerLimit(operation)
            guard cost.answerBytes > limit else { return nil }
            return "answered \(cost.text(.answer)), over its stated \(InputCost.bytes(limit))"
        case .descriptors:
            guard cost.descriptorGrowth > Self.descriptorGrowth, let again,
                again.descriptorGrowth > Self.descriptorGrowth
            else { return nil }
            return "left \(cost.text(.descriptors)) descriptors open (\(again.text(.descriptors)) sent again)"
        }
    }
}
