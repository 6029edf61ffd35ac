import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// The fuzzing of one running suite: learn, open sessions, then send seeded requests one at a
/// time and judge each answer. The rules: no daemon exits (the supervisor's pids and restart
/// counts do not move), no answer is `internal`, and every answer is the operation's Output or
/// a typed error, in time.
final class LiveFuzzer {
    let suite: LiveSuite
    let client: ServiceClient
    let control: ServiceClient
    let contracts: SuiteContracts
    let sessions: Sessions
    let seed: UInt64
    /// `unix` or `tcp`, for the line that runs the seed again.
    let transport: String
    /// Where frames too long for a command line are written.
    let findingsFolder: String
    /// Prints a line as it happens.
    let log: (String) -> Void

    private var random: FuzzRandom
    private(set) var learned: LearnedValues
    private(set) var findings: [Finding] = []
    private(set) var sent = 0
    /// Answers by code (`ok` for an Output), for the summary.
    private(set) var answers: [String: Int] = [:]
    /// Refusals that say the callee was not reached (`unavailable`, …), by operation and code: a
    /// dependency restarting, or a daemon dying; the summary lists them.
    private var unanswered: [String: Int] = [:]
    /// Operations that made a daemon exit: not sent again this run, so one crash does not exhaust
    /// the service's restart budget and hide the rest.
    private var quarantined: Set<String> = []
    /// Each operation's quickest answer so far, by label (one slow answer may be the machine's;
    /// every answer slow is the operation's): the sweep takes the quickest operations first.
    private var quickest: [String: Duration] = [:]
    /// Requests that took longer than ``patience`` and were sent again, by operation.
    private var slow: [String: Int] = [:]
    /// Requests sent by each stage: learning ids, the sweep, random inputs.
    private(set) var phaseCounts = (learn: 0, sweep: 0, random: 0)
    /// Each service's pid and restart count at the last look.
    private var lastSeen: [String: (pid: Int?, restarts: Int)] = [:]
    private let started = ContinuousClock.now
    /// The last requests sent, for a daemon exit a periodic look finds.
    private var recent: [FuzzRequest] = []
    /// Passes of the sweep: each sends every field its next edge value.
    static let sweepRanks = 13

    /// The supervisor's table is read every this many requests (and after any suspicious answer).
    static let lookEvery = 10
    private let base: Int64

    init(
        suite: LiveSuite, client: ServiceClient, control: ServiceClient, contracts: SuiteContracts, sessions: Sessions,
        seed: UInt64, transport: String, findingsFolder: String, log: @escaping (String) -> Void
    ) {
        self.transport = transport
        self.suite = suite
        self.client = client
        self.control = control
        self.contracts = contracts
        self.sessions = sessions
        self.seed = seed
        self.findingsFolder = findingsFolder
        self.log = log
        random = FuzzRandom(seed: seed)
        learned = LearnedValues(secretFields: Set([sessions.tokenField].compactMap { $0 }))
        // Tomorrow, 10:00 UTC, plus a seeded number of days: where plausible timestamps start.
        let day: Int64 = 86_400_000_000
        let today = Timestamp.now.microsecondsSinceEpoch / day * day
        var random = FuzzRandom(seed: seed ^ 0x5EED)
        base = today + day * Int64.random(in: 1...20, using: &random) + 10 * 3_600_000_000
    }

    /// Looks at the supervisor's table once, so that later exits are seen as changes.
    func baseline() async {
        _ = await exitedSinceLastLook()
    }

    /// Sends plausible requests to every operation `rounds` times, under each session, so that
    /// answers teach real ids before edges are tried.
    func learnIDs(rounds: Int) async {
        let before = sent
        defer { phaseCounts.learn += sent - before }
        for _ in 0..<rounds {
            for target in contracts.targets where !quarantined.contains(target.label) {
                for session in [FuzzRequest.Session.patient, .admin] {
                    await send(build(target, session: session, edgePercent: 0, raw: false))
                }
            }
        }
    }

    /// One field at a time, every operation, each field's edge values in rank order (a rank per
    /// pass: minimum first, then maximum, 0, -1, …), the other fields plausible and real: the
    /// edges most likely to break arithmetic reach the code behind the lookups within the first
    /// few hundred requests. Until `deadline` or `ranks` passes.
    func sweep(until deadline: ContinuousClock.Instant, ranks: Int, maxRequests: Int?, stopAfter: Int?) async {
        let before = sent
        defer { phaseCounts.sweep += sent - before }
        // The verticals' own operations first, then the built-ins; the quickest first within each
        // (as the requests that learnt ids timed them): an operation that hashes a password on
        // every call does not hold the others' edges back.
        func quickestFirst(_ targets: [SuiteContracts.Target]) -> [SuiteContracts.Target] {
            targets.enumerated().sorted { a, b in
                let (left, right) = (quickest[a.element.label] ?? .zero, quickest[b.element.label] ?? .zero)
                return left == right ? a.offset < b.offset : left < right
            }.map(\.element)
        }
        var targets = quickestFirst(contracts.targets.filter(\.isOwn))
        targets += quickestFirst(contracts.targets.filter { !$0.isOwn })
        for rank in 0..<ranks {
            for target in targets where !quarantined.contains(target.label) {
                let schema = target.operation.input.schema
                for field in schema.fields where field.name != sessions.tokenField {
                    guard ContinuousClock.now < deadline, maxRequests.map({ sent < $0 }) ?? true,
                        stopAfter.map({ findings.count < $0 }) ?? true
                    else { return }
                    // An operation that made its daemon exit is done with (the next one goes on).
                    if quarantined.contains(target.label) { break }
                    // The patient and the admin in turn; the one there is when only one is (over
                    // TCP no admin can be made without the operator's certificate).
                    let session: FuzzRequest.Session =
                        sessions.admin == nil || (rank % 2 == 0 && sessions.patient != nil) ? .patient : .admin
                    guard var input = build(target, session: session, edgePercent: 0, raw: false).input else {
                        continue
                    }
                    let value =
                        field.presence == .repeated
                        ? Self.sweptList(field, rank: rank, plausible: input[field.tag])
                        : EdgeValues.ranked(field.type, rank)
                    guard let value else { continue }
                    input[field.tag] = value
                    guard let body = try? input.encoded(as: schema) else { continue }
                    await send(FuzzRequest(target: target, session: session, input: input, body: body, rawChange: nil))
                }
            }
        }
    }

    /// A repeated field's value for the sweep's `rank`: thousands of its plausible element (a real
    /// id over and over), thousands of an edge value, or none.
    static func sweptList(_ field: FieldDescriptor, rank: Int, plausible: WireValue?) -> WireValue? {
        switch rank % 3 {
        case 0:
            if case .list(let elements)? = plausible, let first = elements.first {
                return .list(Array(repeating: first, count: EdgeValues.longList))
            }
            fallthrough
        case 1:
            return EdgeValues.ranked(field.type, rank, small: true).map {
                .list(Array(repeating: $0, count: EdgeValues.longList))
            }
        default:
            return .list([])
        }
    }

    /// Fuzzes until `deadline` or `maxRequests`; stops early after `stopAfter` findings when given.
    func fuzz(until deadline: ContinuousClock.Instant, maxRequests: Int?, stopAfter: Int?) async {
        let before = sent
        defer { phaseCounts.random += sent - before }
        let targets = contracts.targets
        while ContinuousClock.now < deadline, maxRequests.map({ sent < $0 }) ?? true,
            stopAfter.map({ findings.count < $0 }) ?? true
        {
            let open = targets.filter { !quarantined.contains($0.label) }
            guard !open.isEmpty else { break }
            // A vertical's own operations four times as often as the built-ins, which are the
            // same framework code in every daemon.
            let own = open.filter(\.isOwn)
            let target = random.pick(own.isEmpty || random.chance(20) ? open : own)
            // Now and then a plausible request keeps the ids fresh (new appointments, entries).
            if random.chance(10) {
                await send(build(target, session: random.pick([.patient, .admin]), edgePercent: 0, raw: false))
                continue
            }
            let session = random.pick([FuzzRequest.Session.none, .patient, .patient, .admin])
            let edgePercent = random.pick([10, 25, 50, 100])
            await send(build(target, session: session, edgePercent: edgePercent, raw: random.chance(8)))
        }
    }

    /// A request to `target` built from the seeded generator.
    func build(_ target: SuiteContracts.Target, session: FuzzRequest.Session, edgePercent: Int, raw: Bool)
        -> FuzzRequest
    {
        let schema = target.operation.input.schema
        let token: String? =
            switch session {
            case .none: nil
            case .patient: sessions.patient
            case .admin: sessions.admin
            }
        let maker = InputMaker(
            learned: learned, tokenField: sessions.tokenField,
            // Never the real token to the operation that ends sessions: the run would lose its own.
            token: target.operation.marks.contains(.endsSession) ? nil : token, edgePercent: edgePercent,
            baseMicroseconds: base)
        let input = maker.make(schema, using: &random)
        let body: [UInt8]
        do {
            body = try input.encoded(as: schema)
        } catch {
            // The generator only writes what the schema allows; this is the fuzzer's own bug.
            return FuzzRequest(
                target: target, session: session, input: nil, body: [], rawChange: "not encodable: \(error)")
        }
        guard raw else {
            return FuzzRequest(target: target, session: session, input: input, body: body, rawChange: nil)
        }
        let (bytes, how) = RawBodies.mutate(body, schema: schema, using: &random)
        return FuzzRequest(target: target, session: session, input: input, body: bytes, rawChange: how)
    }

    /// The make target that replays a finding: `fuzz-live`, or `fuzz-cost` while the cost search runs.
    var command = "fuzz-live"

    /// Counts a request sent by another stage (the cost search), so findings number it.
    func countSent() { sent += 1 }

    /// Whether requests are replayed frames rather than the seed's.
    var replaying = false

    /// Sends `request` and judges its answer.
    func send(_ given: FuzzRequest) async {
        var request = given
        request.tokenField = sessions.tokenField
        sent += 1
        let operation = request.target.operation
        let problem: String?
        var suspicious = false
        let start = ContinuousClock.now
        defer { quickest[request.target.label] = min(quickest[request.target.label] ?? .seconds(60), .now - start) }
        do {
            let reply = try await answer(to: request)
            count("ok")
            do {
                let output = try MessageValue(decoding: reply, as: operation.output.schema)
                learned.harvest(output, as: operation.output.schema)
                problem = nil
            } catch {
                problem = "answered a body that is not a \(operation.output.schema.name): \(error)"
            }
        } catch {
            count(error.code.wireName)
            switch error.code {
            case .internal
            where transport.hasPrefix("hostile") && error.details.first?.key == ServiceError.undeclaredCodeKey:
                // What a caller answers when its callee broke its contract: here the callee is the
                // hostile program, which answers codes no contract declares on purpose.
                problem = nil
            case .internal: problem = "answered internal: \(error.message)"
            case .unknown(let code): problem = "answered an error code no contract knows: \(code): \(error.message)"
            case .deadlineExceeded:
                problem =
                    "no answer within \(Self.patience) s, nor within \(Self.longPatience) s when sent again (\(error.message))"
            default: problem = nil
            }
            // Judged by the supervisor's table below: a daemon that died mid-request.
            suspicious = [.unavailable, .protocolError, .cancelled, .deadlineExceeded].contains(error.code)
            if suspicious { unanswered["\(request.target.label) \(error.code.wireName)", default: 0] += 1 }
        }
        recent.append(request)
        if recent.count > Self.lookEvery { recent.removeFirst() }
        // A daemon that died under this request shows as a refused call at once, but in the
        // supervisor's table only once it has reaped the process: look again for a moment.
        var exited = await exitedSinceLastLook(always: problem != nil || suspicious || sent % Self.lookEvery == 0)
        var looks = 0
        while suspicious, exited.isEmpty, looks < 30 {
            looks += 1
            try? await Task.sleep(for: .milliseconds(50))
            exited = await exitedSinceLastLook()
        }
        if !exited.isEmpty {
            // The request that answered badly, else the latest sent to a vertical that exited (a
            // periodic look finds an exit up to ``lookEvery`` requests late), else this one.
            let names = exited.map { String($0.prefix { $0 != " " }) }
            let culprit = suspicious ? request : recent.last { names.contains($0.target.vertical) } ?? request
            let late =
                culprit.target.label == request.target.label || suspicious
                ? "" : " (seen \(Self.lookEvery) requests late at most)"
            record(culprit, "daemon exited: " + exited.joined(separator: "; ") + late)
            quarantined.insert(culprit.target.label)
            await recover()
        } else if let problem {
            record(request, problem)
        }
    }

    private func count(_ key: String) { answers[key, default: 0] += 1 }

    /// Seconds a request may take before it is suspected of hanging.
    static let patience = 10
    /// Seconds a suspected request gets when sent again: a hang does not answer then either, a
    /// machine busy with other work does.
    static let longPatience = 60

    /// The answer to `request`; one that takes longer than ``patience`` is sent again with
    /// ``longPatience``, and only a second silence is thrown (`deadlineExceeded`), so a loaded
    /// machine's slow answer is counted as slow (the summary says how many), not reported as a hang.
    private func answer(to request: FuzzRequest) async throws(ServiceError) -> [UInt8] {
        do {
            return try await client.callRaw(
                service: request.target.vertical, operation: request.target.operation.fullName, body: request.body,
                timeout: .seconds(Self.patience))
        } catch  where error.code == .deadlineExceeded {
            slow[request.target.label, default: 0] += 1
            return try await client.callRaw(
                service: request.target.vertical, operation: request.target.operation.fullName, body: request.body,
                timeout: .seconds(Self.longPatience))
        }
    }

    /// Records a finding of `request` and prints it; `command` is the make target that replays it.
    func record(_ request: FuzzRequest, _ symptom: String, command: String? = nil) {
        var request = request
        request.tokenField = sessions.tokenField
        var finding = Finding(
            request: request, symptom: symptom, seed: seed, number: sent,
            seconds: Double((ContinuousClock.now - started).components.seconds)
                + Double((ContinuousClock.now - started).components.attoseconds) / 1e18, replayed: replaying,
            transport: transport)
        finding.command = command ?? self.command
        findings.append(finding)
        log(finding.report(hexFile: hexFile(for: finding)))
    }

    /// Hex digits printed inline; a longer frame goes to a file (a command-line argument holds 128 KiB).
    static let longestInlineFrame = 4_096

    /// Where a frame too long for one command-line argument is written (`REPLAY=@FILE`).
    private func hexFile(for finding: Finding) -> String? {
        let text = finding.request.replayText
        guard text.utf8.count > Self.longestInlineFrame else { return nil }
        let path = "\(findingsFolder)/seed-\(seed)-request-\(finding.number).hex"
        mkdir(findingsFolder, 0o755)
        guard let file = fopen(path, "w") else { return nil }
        fputs(text + "\n", file)
        fclose(file)
        return path
    }

    /// The services whose process changed since the last look (a new pid or more restarts), with
    /// how the old one ended; a daemon's exit shows at once only as a refused call, so the table
    /// is read after every suspicious answer and every tenth request.
    private func exitedSinceLastLook(always: Bool = true) async -> [String] {
        guard always, let services = await suite.status(control) else { return [] }
        var exited: [String] = []
        for service in services {
            if let before = lastSeen[service.name],
                service.restarts > before.restarts
                    || (before.pid != nil && service.pid != nil && service.pid != before.pid)
                    || (before.pid != nil && service.pid == nil)
            {
                exited.append(
                    "\(service.name) (\(service.lastExit.isEmpty ? service.state.wireName : service.lastExit))")
            }
            lastSeen[service.name] = (service.pid, service.restarts)
        }
        return exited
    }

    /// After an exit: every service ready again (a failed one started), the table looked at anew.
    private func recover() async {
        if !(await suite.waitUntilReady(control, timeout: .seconds(20))), let services = await suite.status(control) {
            for service in services where service.state == .failed {
                _ = try? await control.call(Supervisor.start, .init(name: service.name), timeout: .seconds(10))
            }
            _ = await suite.waitUntilReady(control, timeout: .seconds(20))
        }
        _ = await exitedSinceLastLook()
    }

    /// What the run did, in a few lines.
    func summary(elapsed: Duration) -> String {
        let codes = answers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let verticals = contracts.contracts.map(\.name).joined(separator: ", ")
        let stages = "\(phaseCounts.learn) learning ids, \(phaseCounts.sweep) sweep, \(phaseCounts.random) random"
        let patient = sessions.patient == nil ? "no" : "yes"
        let admin = sessions.admin == nil ? "no" : "yes"
        var lines = [
            "fuzz-live: seed \(seed), \(sent) requests (\(stages); \(elapsed.components.seconds) s fuzzing) to "
                + "\(contracts.targets.count) operations of \(contracts.contracts.count) verticals (\(verticals))",
            "  answers: \(codes)",
            "  learnt: \(learned.idCount) ids; sessions: patient \(patient), admin \(admin)"
                + (sessions.tokenField.map { ", token field \($0)" } ?? ""),
        ]
        lines += sessions.notes.map { "  note: \($0)" }
        if !unanswered.isEmpty {
            lines.append(
                "  not reached: "
                    + unanswered.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !slow.isEmpty {
            lines.append(
                "  slower than \(Self.patience) s, sent again: "
                    + slow.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !quarantined.isEmpty {
            lines.append("  not sent again after a daemon exit: \(quarantined.sorted().joined(separator: ", "))")
        }
        lines.append(
            findings.isEmpty
                ? "  held: no daemon exited, no internal, every answer typed" : "  \(findings.count) findings")
        return lines.joined(separator: "\n")
    }
}
