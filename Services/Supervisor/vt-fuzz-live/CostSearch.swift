import VerticalsClient
import VerticalsContract
import VerticalsWire

/// The search for the costliest input, as PerfFuzz and SlowFuzz do it: for every operation, a
/// small corpus per cost (``InputCost/Kind``) of the costliest inputs found so far, and each new
/// input a mutation of one of them (a string, byte run or list doubled, an edge value, a change
/// after encoding) or, now and then, a fresh one from ``LiveFuzzer``'s generator. An input that
/// costs more than the least of a corpus takes its place. Every input stays within the frame
/// limit; each is judged by ``CostBudgets``, and an input over budget is sent again before it is
/// a finding (the heap's and descriptors' budgets are judged on the second sending).
final class CostSearch {
    let fuzzer: LiveFuzzer
    let probe: CostProbe
    let budgets: CostBudgets

    /// The costliest inputs kept per operation and cost.
    static let corpusSize = 3
    /// The largest body tried: the frame limit, less room for the envelope.
    static let largestBody = FrameDecoder.defaultMaxFrameSize - 4096

    /// One input and what it cost.
    struct Entry {
        let request: FuzzRequest
        let cost: InputCost
    }

    private var random: FuzzRandom
    /// Per operation (its label), per cost, the costliest inputs, costliest first.
    private(set) var corpus: [String: [InputCost.Kind: [Entry]]] = [:]
    /// Operations and costs already reported over budget (one finding each).
    private var reported: Set<String> = []
    /// Inputs the probes held over budget on both sendings that are not findings, since the
    /// loop's own work could not explain the hold on one of them (``CostBudgets/excusesHold(_:)``):
    /// listed in the report.
    private var excusedHolds: [String] = []
    /// Inputs measured.
    private(set) var measured = 0
    private let created = ContinuousClock.now

    init(fuzzer: LiveFuzzer, probe: CostProbe, budgets: CostBudgets, seed: UInt64) {
        self.fuzzer = fuzzer
        self.probe = probe
        self.budgets = budgets
        random = FuzzRandom(seed: seed ^ 0xC057)
    }

    /// Searches until `deadline`, every operation in turn, and every operation at least once
    /// however short the time.
    func run(until deadline: ContinuousClock.Instant, maxRequests: Int?) async {
        await probe.refreshPids()
        let targets = fuzzer.contracts.targets
        guard !targets.isEmpty else { return }
        var index = 0
        while ContinuousClock.now < deadline || index < targets.count, maxRequests.map({ measured < $0 }) ?? true {
            let target = targets[index % targets.count]
            index += 1
            await measureAndKeep(candidate(for: target))
        }
    }

    /// The next input for `target`: a mutation of a kept one, or a fresh one.
    private func candidate(for target: SuiteContracts.Target) -> FuzzRequest {
        let kept = corpus[target.label].map { $0.values.flatMap { $0 } } ?? []
        guard !kept.isEmpty, !random.chance(15) else {
            let session = random.pick([FuzzRequest.Session.none, .patient, .admin])
            let fresh = fuzzer.build(
                target, session: session, edgePercent: random.pick([0, 10, 25, 50]), raw: random.chance(8))
            // An edge the schema's own bounds refuse to encode: a plausible input instead.
            return fresh.input == nil ? fuzzer.build(target, session: session, edgePercent: 0, raw: false) : fresh
        }
        return mutated(random.pick(kept).request)
    }

    /// `request` changed in one place.
    func mutated(_ request: FuzzRequest) -> FuzzRequest {
        let schema = request.target.operation.input.schema
        guard var input = request.input else { return request }
        let fields = schema.fields.filter { $0.name != fuzzer.sessions.tokenField }
        if random.chance(10) || fields.isEmpty {
            let (bytes, how) = RawBodies.mutate(request.body, schema: schema, using: &random)
            return FuzzRequest(
                target: request.target, session: request.session, input: input, body: bytes, rawChange: how)
        }
        let field = random.pick(fields)
        let room = Self.largestBody - request.body.count
        let value: WireValue? =
            random.chance(60)
            ? Self.grown(input[field.tag], field, room: room, using: &random)
            : EdgeValues.value(of: field.type, small: field.presence == .repeated, using: &random).map {
                field.presence == .repeated ? .list(Array(repeating: $0, count: random.pick([1, 64, 4096]))) : $0
            }
        guard let value else {
            return fuzzer.build(request.target, session: request.session, edgePercent: 25, raw: false)
        }
        input[field.tag] = value
        guard let body = try? input.encoded(as: schema), body.count <= Self.largestBody else { return request }
        return FuzzRequest(target: request.target, session: request.session, input: input, body: body, rawChange: nil)
    }

    /// `value` twice as long (a string, a byte run, a list), when `room` bytes allow; a small
    /// start for an empty or absent one.
    static func grown(_ value: WireValue?, _ field: FieldDescriptor, room: Int, using random: inout FuzzRandom)
        -> WireValue?
    {
        switch value {
        case .string(let text)?:
            guard !text.isEmpty else { return .string(random.pick(["a", "\u{0301}", "é", "\u{FFFD}", "Z\u{0336}"])) }
            return text.utf8.count <= room ? .string(text + text) : nil
        case .bytes(let bytes)?:
            guard !bytes.isEmpty else { return .bytes([0xFF]) }
            return bytes.count <= room ? .bytes(bytes + bytes) : nil
        case .list(let elements)?:
            guard let first = elements.first else {
                return EdgeValues.value(of: field.type, small: true, using: &random).map { .list([$0]) }
            }
            // Each element costs at least a byte or two on the wire.
            return elements.count * 2 <= room ? .list(elements + elements.map { _ in first }) : nil
        default:
            return nil
        }
    }

    /// Measures `request`, keeps it where it costs more than what a corpus holds, and judges it.
    private func measureAndKeep(_ request: FuzzRequest) async {
        guard request.body.count <= Self.largestBody else { return }
        fuzzer.countSent()
        measured += 1
        let (cost, answer) = await probe.measure(request)
        if case .failure(let error) = answer, [.unavailable, .protocolError].contains(error.code) {
            await probe.refreshPids() // a daemon restarted: its pid changed
        }
        keep(Entry(request: request, cost: cost))
        await judge(request, cost)
    }

    /// Puts `entry` in its operation's corpora where it costs more than the least kept.
    private func keep(_ entry: Entry) {
        let label = entry.request.target.label
        for kind in InputCost.Kind.allCases {
            var kept = corpus[label]?[kind] ?? []
            guard kept.count < Self.corpusSize || entry.cost.value(kind) > (kept.last?.cost.value(kind) ?? 0) else {
                continue
            }
            kept.append(entry)
            kept.sort { $0.cost.value(kind) > $1.cost.value(kind) }
            corpus[label, default: [:]][kind] = Array(kept.prefix(Self.corpusSize))
        }
    }

    /// Records a finding for each budget `cost` breaks (once per operation and cost), after
    /// sending the same input again.
    private func judge(_ request: FuzzRequest, _ cost: InputCost) async {
        let operation = request.target.operation.fullName
        let over = InputCost.Kind.allCases.filter {
            !reported.contains("\(request.target.label) \($0)")
                && budgets.problem($0, cost, again: cost, operation: operation) != nil
        }
        let excused = budgets.excusesHold(cost) && !reported.contains("\(request.target.label) loopHold")
        guard !over.isEmpty || excused else { return }
        fuzzer.countSent()
        let again = await probe.measure(request).cost
        for kind in over {
            guard let problem = budgets.problem(kind, cost, again: again, operation: operation) else { continue }
            reported.insert("\(request.target.label) \(kind)")
            fuzzer.record(request, problem, command: "fuzz-cost")
        }
        // A hold over budget both times that is not a finding (either sending's loop did not
        // work that long) is listed, so a reader sees what the condition takes away.
        let holdCounted = reported.contains("\(request.target.label) loopHold")
        if !holdCounted, budgets.judgesTime, cost.loopHold > CostBudgets.loopHold, again.loopHold > CostBudgets.loopHold
        {
            excusedHolds.append(
                "\(request.target.label): held \(cost.text(.loopHold)) (\(again.text(.loopHold)) sent again); "
                    + "\(cost.loopTimes) (\(again.loopTimes) sent again): \(request.summary)")
        }
    }

    /// Measures one replayed request twice and prints its costs and what broke a budget.
    func replay(_ request: FuzzRequest) async {
        await probe.refreshPids()
        say("fuzz-cost: replaying \(request.target.label) (\(request.body.count) bytes of body)")
        let first = await probe.measure(request).cost
        let again = await probe.measure(request).cost
        say("  costs: " + Self.figures(first) + "; sent again: " + Self.figures(again))
        fuzzer.replaying = true
        let operation = request.target.operation.fullName
        var held = true
        for kind in InputCost.Kind.allCases {
            guard let problem = budgets.problem(kind, first, again: again, operation: operation) else { continue }
            held = false
            fuzzer.record(request, problem, command: "fuzz-cost")
        }
        if held { say("fuzz-cost: the replayed request held every budget") }
    }

    /// Every cost of `cost` in a line.
    static func figures(_ cost: InputCost) -> String {
        InputCost.Kind.allCases.map { "\($0.rawValue) \(cost.text($0))" }.joined(separator: ", ") + " (\(cost.outcome))"
            + (cost.loopTimes.isEmpty ? "" : "; \(cost.loopTimes)")
    }

    /// Per operation, its worst figure for each cost and the input that cost the longest loop
    /// hold, in a few lines each.
    func report() -> String {
        var lines = [
            "fuzz-cost: \(measured) inputs measured in \(String(format1: (ContinuousClock.now - created).seconds)) s; "
                + "worst per operation (loop, heap, answer, fds):"
        ]
        for label in corpus.keys.sorted() {
            guard let kinds = corpus[label] else { continue }
            let worst = InputCost.Kind.allCases.map { kind in
                kinds[kind]?.first.map { "\(kind.rawValue) \($0.cost.text(kind))" } ?? "\(kind.rawValue) -"
            }
            lines.append("  \(label): " + worst.joined(separator: ", "))
            if let slowest = kinds[.loopHold]?.first {
                let times = slowest.cost.loopTimes.isEmpty ? "" : "; \(slowest.cost.loopTimes)"
                lines.append("    slowest input: \(slowest.request.summary) (\(slowest.cost.outcome))\(times)")
            }
        }
        if !excusedHolds.isEmpty {
            lines.append(
                "fuzz-cost: \(excusedHolds.count) holds not counted (the probes over "
                    + "\(CostBudgets.loopHold.microseconds / 1000) ms, the loop's own work under it, "
                    + "or its waits for a processor as long as the excess):")
            lines += excusedHolds.prefix(Self.excusedShown).map { "  " + $0 }
            if excusedHolds.count > Self.excusedShown {
                lines.append("  … and \(excusedHolds.count - Self.excusedShown) more")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// How many holds not counted the report lists.
    private static let excusedShown = 20
}
