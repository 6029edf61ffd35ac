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
public final class CalleeContracts: Sendable {
    /// The vertical whose build this is, for messages.
    public let caller: String
    /// What this build declares it calls.
    public let callees: Callees
    private let state = Mutex<[String: Entry]>([:])
    /// Where a new status line goes (the daemon's `Notifier`); nil: nowhere.
    private let report: (@Sendable (String) -> Void)?
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
        /// The differences that are refusals or warnings, one line each; why, when unchecked.
        public var findings: [String]
    }

    /// The contracts of the verticals `callees` names with their schemas, as caller `caller`;
    /// `report` receives a status line each time the set of refused operations changes.
    public init(caller: String, callees: Callees, report: (@Sendable (String) -> Void)? = nil) {
        self.caller = caller
        self.callees = callees
        self.report = report
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
        state.withLock { $0[service, default: Entry()].expected = expected }
        return expected
    }

    /// Judges `answer`, a callee's answer to the check, against `expected`, keeps the finding
    /// for `service` and returns it.
    func found(_ answer: Daemon.ContractCheck, service: String, expected: Expected) -> Found {
        var found = Found(
            state: .compatible, builtAgainst: expected.fingerprint, serves: answer.fingerprint, version: answer.version,
            refused: [:], findings: [])
        if answer.fingerprint != expected.fingerprint {
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
            for finding in findings where finding.verdict != .nothing {
                found.findings.append(finding.description)
                guard finding.verdict == .refuse else { continue }
                let operation = "\(service).\(finding.operation)"
                guard found.refused[operation] == nil else { continue }
                found.refused[operation] = refusal(of: operation, service: service, finding, found)
            }
            if !found.refused.isEmpty { found.state = .incompatible }
        }
        keep(found, for: service)
        return found
    }

    /// Keeps that `service` could not say what it serves (`why`), and returns it.
    func unchecked(_ service: String, expected: Expected, why: String) -> Found {
        let found = Found(
            state: .unchecked, builtAgainst: expected.fingerprint, serves: "", version: "", refused: [:],
            findings: [why])
        keep(found, for: service)
        return found
    }

    /// What each callee asked was found serving, by name.
    public var found: [String: Found] {
        state.withLock { table in table.compactMapValues(\.found) }
    }

    /// The same, in `daemon.health`'s form, sorted by callee.
    public var health: [Daemon.CalleeContract] {
        found.sorted { $0.key < $1.key }.map { service, found in
            Daemon.CalleeContract(
                service: service, state: found.state.rawValue, builtAgainst: found.builtAgainst, serves: found.serves,
                version: found.version, refused: found.refused.keys.sorted(), findings: found.findings)
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
            table[service, default: Entry()].found = found
            return table.compactMapValues(\.found)
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
        return ServiceError(
            .unimplemented,
            "\(operation) is not called: \(service) serves a contract this build of \(caller) does not speak"
                + "\(place) (\(finding.detail)); \(caller) was built against \(mine), \(service) serves \(theirs)"
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
