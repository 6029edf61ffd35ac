import VerticalsContract
import VerticalsWire

/// Whether a new build of one vertical can join the builds that run: `svc-supervisor
/// can-i-deploy`'s judgement, with no I/O (the command gathers the descriptions).
///
/// Every edge is judged as a pair (``ContractPair``): what the caller was built against, for the
/// operations it declares, against what the callee's build serves. The caller writes each Input
/// and the callee reads it; the callee writes each Output and the caller reads it; the table of
/// PROTOCOL.md § 8 says what each difference comes to in each direction.
///
/// ```swift
/// let edge = DeployCheck.judge(caller: "appointments", builtAgainst: running.builtAgainst("clinics"),
///                              serves: newBuild.serves)
/// ```
public enum DeployCheck {
    /// The edge from `caller` to the vertical `serves` describes, judged: breaking (every
    /// difference the table refuses), or compatible (with the warnings and harmless differences).
    /// Either description over ``DescriptionBounds`` is not walked: the edge is unknown, saying why.
    public static func judge(
        caller: String, builtAgainst: Daemon.Description, serves: Daemon.Description
    ) -> DeployEdge {
        for (whose, description) in [("the caller's build", builtAgainst), ("the callee's", serves)] {
            if let problem = DescriptionBounds.problem(description) {
                return DeployEdge(
                    caller: caller, callee: PeerText(serves.name, maxBytes: 64).text,
                    outcome: .unknown("\(whose) description is not judged: \(problem)"))
            }
        }
        // The operations the caller does not declare are the callee's business alone.
        let findings = ContractPair.compare(builtAgainst: builtAgainst, serves: serves)
            .filter { $0.difference != .operationNotDeclared }
        let refused = findings.filter { $0.verdict == .refuse }
        return DeployEdge(
            caller: caller, callee: serves.name,
            outcome: refused.isEmpty ? .compatible(findings) : .breaking(refused))
    }
}

/// One caller–callee pair `can-i-deploy` looked at, and what it found.
public struct DeployEdge: Sendable, Hashable, CustomStringConvertible {
    /// What the pair comes to.
    public enum Outcome: Sendable, Hashable {
        /// The caller keeps working: the differences found, warnings first.
        case compatible([ContractPair.Finding])
        /// The caller would fail: every difference the table refuses.
        case breaking([ContractPair.Finding])
        /// Nothing could be compared (a vertical not reachable, a build that did not describe
        /// itself, calls declared by name alone): the reason. Never a yes.
        case unknown(String)
    }

    /// The calling vertical.
    public var caller: String
    /// The called vertical.
    public var callee: String
    /// What was found.
    public var outcome: Outcome

    /// Creates an edge.
    public init(caller: String, callee: String, outcome: Outcome) {
        self.caller = caller
        self.callee = callee
        self.outcome = outcome
    }

    /// Whether the pair breaks.
    public var isBreaking: Bool {
        if case .breaking = outcome { return true }
        return false
    }

    /// Whether nothing could be said of the pair.
    public var isUnknown: Bool {
        if case .unknown = outcome { return true }
        return false
    }

    public var description: String {
        switch outcome {
        case .compatible(let findings):
            "\(caller) → \(callee): compatible"
                + (findings.isEmpty ? "" : " (\(findings.count) difference(s) that refuse nothing)")
                + Self.lines(findings.filter { $0.verdict == .warn })
        case .breaking(let findings):
            "\(caller) → \(callee): BREAKS" + Self.lines(findings)
        case .unknown(let reason):
            "\(caller) → \(callee): not checked: \(reason)"
        }
    }

    /// A line for each finding: verdict, operation, place and why.
    private static func lines(_ findings: [ContractPair.Finding]) -> String {
        findings.map {
            "\n    \($0.verdict.rawValue) \($0.difference.rawValue): \($0.operation)"
                + ($0.place.isEmpty ? "" : " \($0.place)") + ": \($0.detail)"
        }.joined()
    }
}

/// `can-i-deploy`'s answer over every edge: yes only when each edge was compared and none breaks.
public enum DeployAnswer: String, Sendable, Equatable {
    /// Every edge compared, none breaks.
    case yes
    /// At least one edge breaks.
    case no
    /// None breaks, but at least one edge could not be compared.
    case unknown

    /// The answer over `edges`.
    public init(_ edges: [DeployEdge]) {
        if edges.contains(where: \.isBreaking) {
            self = .no
        } else if edges.contains(where: \.isUnknown) {
            self = .unknown
        } else {
            self = .yes
        }
    }
}
