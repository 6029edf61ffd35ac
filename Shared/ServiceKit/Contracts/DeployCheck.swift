import VerticalsContract

/// Whether a new build of one vertical can join the builds that run: `svc-supervisor
/// can-i-deploy`'s judgement, with no I/O (the command gathers the descriptions).
///
/// One rule covers both directions of every edge: ``Compatibility/compare(_:_:)`` of *old* = what
/// the caller was built against for the operations it declares, and *new* = what the callee's
/// build serves. The callee reads an Input (reader new), the caller reads an Output (reader old),
/// and only the operations the caller declares count.
///
/// ```swift
/// let edge = DeployCheck.judge(caller: "appointments", builtAgainst: running.builtAgainst("clinics"),
///                              serves: newBuild.serves)
/// ```
public enum DeployCheck {
    /// The edge from `caller` to the vertical `serves` describes, judged: compatible (with the
    /// additive findings), or breaking (with every breaking finding).
    public static func judge(
        caller: String, builtAgainst: Daemon.Description, serves: Daemon.Description
    ) -> DeployEdge {
        // The operations the caller does not declare are the callee's business alone.
        let findings = Compatibility.compare(builtAgainst, serves).filter { $0.kind != .operationAdded }
        let breaking = findings.filter(\.isBreaking)
        return DeployEdge(
            caller: caller, callee: serves.name,
            outcome: breaking.isEmpty ? .compatible(additive: findings) : .breaking(breaking))
    }
}

/// One caller–callee pair `can-i-deploy` looked at, and what it found.
public struct DeployEdge: Sendable, Hashable, CustomStringConvertible {
    /// What the pair comes to.
    public enum Outcome: Sendable, Hashable {
        /// The caller keeps working; `additive` lists what changed without harm.
        case compatible(additive: [Compatibility.Finding])
        /// The caller would fail: every breaking finding.
        case breaking([Compatibility.Finding])
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
        case .compatible(let additive):
            "\(caller) → \(callee): compatible" + (additive.isEmpty ? "" : " (\(additive.count) additive change(s))")
        case .breaking(let findings):
            "\(caller) → \(callee): BREAKS\n" + findings.map { "    \($0.kind.rawValue): \($0.place): \($0.detail)" }
                .joined(separator: "\n")
        case .unknown(let reason):
            "\(caller) → \(callee): not checked: \(reason)"
        }
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
