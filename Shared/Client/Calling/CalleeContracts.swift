import Synchronization
import VerticalsContract
import VerticalsWire

/// What a caller was compiled against for each vertical it calls, and what it found each callee
/// serving: the caller's half of `daemon.contractCheck` (PROTOCOL.md § 14).
///
/// On each new connection to a callee whose operations the caller's ``Callees`` declare with
/// their schemas, the client first asks the callee for its fingerprint of those operations. The
/// same fingerprint, or differences that are nothing or warnings (PROTOCOL.md § 8, "One caller
/// and one callee, each direction"), and every call goes through as before. A refusal, and the
/// operations it touches fail at once, before a byte of them is sent, as `unimplemented` with an
/// `incompatibleContract` detail naming the operation, the field and both fingerprints; the
/// others still go through. Each connection's finding is logged once, and kept here for
/// `daemon.health` and `daemon.metrics`; a change in what is refused is reported once as the
/// daemon's status line (`STATUS=`, which `svc-supervisor status` and `systemctl status` show).
///
/// What a callee answers is a peer's text, and is kept bounded: each finding is a `PeerText` of
/// at most `PeerText.findingMaxBytes` bytes, at most ``maxFindings`` of them per callee, and a
/// description over ``DescriptionBounds`` is not walked but kept as one finding; ``health`` is at
/// most ``healthMaxBytes`` bytes of findings and names, whatever the callees send.
public final class CalleeContracts: Sendable {
    /// The most findings kept per callee: 16; the last says how many more there were.
    public static let maxFindings = 16
    /// The most bytes of ``health``'s findings, refused operations and fingerprints together:
    /// 64 KiB, far under any frame limit. What does not fit is left out, saying so.
    public static let healthMaxBytes = 64 * 1024
    /// The longest fingerprint or version kept from a callee's answer: 128 bytes.
    static let answerFieldMaxBytes = 128

    /// The vertical whose build this is, for messages.
    public let caller: String
    /// What this build declares it calls.
    public let callees: Callees
    /// By callee: only those the build declares with their schemas (``expected(for:)``), so the
    /// capacity, one per such callee, is never reached.
    private let state: Mutex<BoundedCache<String, Entry>>
    /// Where a new status line goes (the daemon's `Notifier`); nil: nowhere.
    private let report: (@Sendable (String) -> Void)?
    /// Where a description that differs is judged (``judge(_:service:expected:later:)``): off the
    /// loop, on the host's blocking-work threads; nil: where it is asked, as a bare client does.
    private let offLoop: OffLoop?

    /// Where jobs run off the loop: a thread that is not an event loop's (the host's blocking-work threads).
    public typealias OffLoop = VerticalsClient.OffLoop
    /// The status line last reported; nil before any.
    private let reported = Mutex<String?>(nil)

    private struct Entry {
        var expected: Expected?
        var found: Found?
    }

    /// What this build was compiled against for one callee.
    struct Expected: Sendable {
        /// The operations, `service.operation`, sorted: what the check asks about.
        let operations: [String]
        /// Their description as this build links them.
        let description: Daemon.Description
        /// Its fingerprint.
        let fingerprint: String
    }

    /// What a connection found a callee serving.
    public struct Found: Sendable, Equatable {
        /// How the pair meets.
        public enum State: String, Sendable {
            /// The same contract, or differences that are nothing or warnings.
            case compatible
            /// Some operations are refused.
            case incompatible
            /// The callee could not say (an older build, or an answer that did not read).
            case unchecked
        }

        /// How the pair meets.
        public var state: State
        /// The fingerprint of what this build was compiled against.
        public var builtAgainst: String
        /// The callee's fingerprint of the same operations; empty when unchecked.
        public var serves: String
        /// The callee's framework version; empty when unchecked.
        public var version: String
        /// Each operation refused (`service.operation`) with the error its calls fail with.
        public var refused: [String: ServiceError]
        /// The differences that are refusals or warnings, one line each; why, when unchecked. At
        /// most ``CalleeContracts/maxFindings``, each cut to `PeerText.findingMaxBytes`.
        public var findings: [PeerText]
    }

    /// The contracts of the verticals `callees` names with their schemas, as caller `caller`;
    /// `report` receives a status line each time the set of refused operations changes; a
    /// description that differs is judged through `offLoop` (nil: where it is asked).
    public init(
        caller: String, callees: Callees, offLoop: OffLoop? = nil, report: (@Sendable (String) -> Void)? = nil
    ) {
        self.caller = caller
        self.callees = callees
        self.offLoop = offLoop
        self.report = report
        self.state = Mutex(BoundedCache(capacity: Set(callees.linked.map(\.service)).count))
    }

    /// What this build was compiled against for `service`, or nil when it declares none of its
    /// operations with their schemas (nothing to ask). Made on first use, then kept.
    func expected(for service: String) -> Expected? {
        if let kept = state.withLock({ $0[service]?.expected }) { return kept }
        let operations = callees.linked.filter { $0.service == service }
        guard !operations.isEmpty else { return nil }
        let description = ContractFingerprint.description(of: service, operations)
        let expected = Expected(
            operations: description.operations.map { "\($0.service).\($0.name)" }, description: description,
            fingerprint: ContractFingerprint.of(description))
        state.withLock { table in
            var entry = table[service] ?? Entry()
            entry.expected = expected
            table.store(entry, for: service)
        }
        return expected
    }

    /// Judges the callee's answer in `message` (a `response` frame) as
    /// ``judge(_:service:expected:later:)`` does, having decoded it where it costs the loop a
    /// bounded amount: a body over ``ServiceClient/offLoopAnswerBytes`` is decoded and judged off
    /// the loop, returning nil and handing the finding to `later` (when the threads refuse the job,
    /// the pair is kept `unchecked`, saying so); a smaller one is decoded here.
    func judge(
        answerIn message: Message, service: String, expected: Expected, later: @escaping @Sendable (Found) -> Void
    ) -> Found? {
        guard let offLoop, message.payload.count - message.bodyStart > ServiceClient.offLoopAnswerBytes else {
            do throws(WireDecodingError) {
                return judge(
                    try message.decodeBody(as: Daemon.ContractCheck.self), service: service, expected: expected,
                    later: later)
            } catch {
                return unreadable(service, expected: expected, error)
            }
        }
        let accepted = offLoop.run { [self] in
            do throws(WireDecodingError) {
                later(
                    found(try message.decodeBody(as: Daemon.ContractCheck.self), service: service, expected: expected))
            } catch {
                later(unreadable(service, expected: expected, error))
            }
        }
        guard accepted else {
            return unchecked(
                service, expected: expected,
                why: "its answer of \(message.payload.count) bytes was not read: the threads that read it are busy")
        }
        return nil
    }

    /// The pair kept `unchecked`: the callee's answer to the check does not read.
    private func unreadable(_ service: String, expected: Expected, _ error: WireDecodingError) -> Found {
        unchecked(service, expected: expected, why: "its answer to daemon.contractCheck does not read: \(error)")
    }

    /// Judges `answer` as ``found(_:service:expected:)`` does, where it costs least: the same
    /// fingerprint (a lookup) or no ``OffLoop`` given, here, returning the finding; a description
    /// that differs, off the loop, returning nil and handing the finding to `later` on the thread
    /// that judged it. When the threads refuse the job (their queue is full), the pair is kept
    /// `unchecked`, saying so, rather than judged on the loop.
    func judge(
        _ answer: Daemon.ContractCheck, service: String, expected: Expected,
        later: @escaping @Sendable (Found) -> Void
    ) -> Found? {
        guard let offLoop, answer.fingerprint != expected.fingerprint else {
            return found(answer, service: service, expected: expected)
        }
        let accepted = offLoop.run { [self] in later(found(answer, service: service, expected: expected)) }
        guard accepted else {
            return unchecked(
                service, expected: expected,
                why: "its description differs and was not judged: the threads that judge it are busy")
        }
        return nil
    }

    /// Judges `answer`, a callee's answer to the check, against `expected`, keeps the finding
    /// for `service` and returns it.
    func found(_ answer: Daemon.ContractCheck, service: String, expected: Expected) -> Found {
        var found = Found(
            state: .compatible, builtAgainst: expected.fingerprint,
            serves: PeerText(answer.fingerprint, maxBytes: Self.answerFieldMaxBytes).text,
            version: PeerText(answer.version, maxBytes: Self.answerFieldMaxBytes).text, refused: [:], findings: [])
        if answer.fingerprint != expected.fingerprint {
            if let served = answer.description, let problem = DescriptionBounds.problem(served) {
                // Not walked: judging it would cost what the callee chose.
                found.state = .unchecked
                found.findings = [PeerText("\(service)'s description is not judged: \(problem)")]
                keep(found, for: service)
                return found
            }
            let findings: [ContractPair.Finding]
            if let served = answer.description {
                findings = ContractPair.compare(builtAgainst: expected.description, serves: served)
            } else {
                findings = expected.description.operations.map {
                    ContractPair.Finding(
                        .typeDiffers, .request, operation: $0.name, place: "",
                        "the fingerprints differ, yet \(service) sent no description to compare")
                }
            }
            let asked = Set(expected.operations)
            var left = 0
            for finding in findings where finding.verdict != .nothing {
                if found.findings.count < Self.maxFindings - 1 {
                    found.findings.append(PeerText(finding.description))
                } else {
                    left += 1
                }
                guard finding.verdict == .refuse else { continue }
                let operation = "\(service).\(finding.operation)"
                // Only what this build calls is refused: the table never holds a name the callee chose.
                guard found.refused[operation] == nil, asked.contains(operation) else { continue }
                found.refused[operation] = refusal(of: operation, service: service, finding, found)
            }
            if left > 0 { found.findings.append(PeerText("\(left) more differences (the same kinds, not kept)")) }
            if !found.refused.isEmpty { found.state = .incompatible }
        }
        keep(found, for: service)
        return found
    }

    /// Keeps that `service` could not say what it serves (`why`), and returns it.
    func unchecked(_ service: String, expected: Expected, why: String) -> Found {
        let found = Found(
            state: .unchecked, builtAgainst: expected.fingerprint, serves: "", version: "", refused: [:],
            findings: [PeerText(why)])
        keep(found, for: service)
        return found
    }

    /// What each callee asked was found serving, by name.
    public var found: [String: Found] {
        state.withLock { table in
            Dictionary(uniqueKeysWithValues: table.all.compactMap { key, entry in entry.found.map { (key, $0) } })
        }
    }

    /// The same, in `daemon.health`'s form, sorted by callee: at most ``healthMaxBytes`` bytes of
    /// findings, refused operations and fingerprints; past that, each callee's findings and
    /// refused operations are left out, and one finding says how many.
    public var health: [Daemon.CalleeContract] {
        var budget = Self.healthMaxBytes
        return found.sorted { WireName.precedes($0.key, $1.key) }.map { service, found in
            budget -=
                service.utf8.count + found.builtAgainst.utf8.count + found.serves.utf8.count
                + found.version.utf8.count
            var refused: [String] = []
            var findings: [String] = []
            var left = 0
            for operation in found.refused.keys.sorted(by: { WireName.precedes($0, $1) }) {
                guard budget >= operation.utf8.count else {
                    left += 1
                    continue
                }
                budget -= operation.utf8.count
                refused.append(operation)
            }
            for finding in found.findings {
                guard budget >= finding.text.utf8.count else {
                    left += 1
                    continue
                }
                budget -= finding.text.utf8.count
                findings.append(finding.text)
            }
            if left > 0 { findings.append("\(left) refused operations and findings left out (the log has them)") }
            return Daemon.CalleeContract(
                service: service, state: found.state.rawValue, builtAgainst: found.builtAgainst, serves: found.serves,
                version: found.version, refused: refused, findings: findings)
        }
    }

    /// The same as Prometheus samples: per callee, the operations refused and the warnings.
    public var exposition: String {
        let found = self.found.sorted { $0.key < $1.key }
        guard !found.isEmpty else { return "" }
        var text = "# TYPE verticals_callee_contract_refused_operations gauge\n"
        for (service, entry) in found {
            text += "verticals_callee_contract_refused_operations{callee=\"\(service)\"} \(entry.refused.count)\n"
        }
        text += "# TYPE verticals_callee_contract_unchecked gauge\n"
        for (service, entry) in found {
            text += "verticals_callee_contract_unchecked{callee=\"\(service)\"} \(entry.state == .unchecked ? 1 : 0)\n"
        }
        return text
    }

    private func keep(_ found: Found, for service: String) {
        let all = state.withLock { table in
            var entry = table[service] ?? Entry()
            entry.found = found
            table.store(entry, for: service)
            return table.all.compactMap { key, entry in entry.found.map { (key: key, value: $0) } }
        }
        guard let report else { return }
        let refusing = all.filter { $0.value.state == .incompatible }.sorted { $0.key < $1.key }
        let line: String
        if refusing.isEmpty {
            line = "serving; the callees' contracts are this build's or compatible"
        } else {
            let count = refusing.reduce(0) { $0 + $1.value.refused.count }
            line =
                "serving, but refusing \(count) operation\(count == 1 ? "" : "s") of "
                + refusing.map(\.key).joined(separator: ", ")
                + ": a contract this build does not speak (daemon.health says which)"
        }
        let changed = reported.withLock { last in
            // Nothing to say while nothing was ever refused.
            guard last != line, last != nil || !refusing.isEmpty else { return false }
            last = line
            return true
        }
        if changed { report(line) }
    }

    private func refusal(
        of operation: String, service: String, _ finding: ContractPair.Finding, _ found: Found
    ) -> ServiceError {
        let mine = ContractFingerprint.short(found.builtAgainst)
        let theirs = ContractFingerprint.short(found.serves)
        let place = finding.place.isEmpty ? "" : " at \(finding.place)"
        let detail = PeerText(finding.detail)
        return ServiceError(
            .unimplemented,
            "\(operation) is not called: \(service) serves a contract this build of \(caller) does not speak"
                + "\(place) (\(detail)); \(caller) was built against \(mine), \(service) serves \(theirs)"
                + (found.version.isEmpty ? "" : " (Verticals \(found.version))"),
            details: [
                ErrorDetail("incompatibleContract", finding.difference.rawValue),
                ErrorDetail("service", service),
                ErrorDetail("operation", operation),
                ErrorDetail("field", finding.place),
                ErrorDetail("builtAgainst", found.builtAgainst),
                ErrorDetail("serves", found.serves),
            ])
    }
}
