import VerticalsContract

/// The verticals a vertical calls, declared once in its code: its World's `calls`.
///
/// The declaration is the code's side of the vertical's routes; the manifest's `depends_on`
/// is the operators' side, and both hosts enforce that one (the callee admits only the callers
/// that declare it). The two are made to agree three ways:
/// - a World's caller is a ``DeclaredCaller``: a call to a contract the list lacks is refused
///   before a byte is sent, so an undeclared route fails in the first unit test that takes it;
/// - a daemon whose manager says what the manifest declares (``dependsOnVariable``, which
///   svc-supervisor, the systemd units and the Kubernetes ConfigMaps all set) warns at start-up
///   when the two differ, naming the edge (``disagreement(environment:vertical:)``);
/// - the repository's declared-routes test compares each vertical's list with the manifest in
///   both directions and names the edge.
///
/// ```swift
/// package static let calls = Callees(Identity.self, Clinics.self, Notifications.self)
/// ```
public struct Callees: Sendable, Equatable, CustomStringConvertible {
    /// The environment variable that carries the manifest's `depends_on` of the daemon it is
    /// given to: the names, comma-separated (empty when it declares none).
    public static let dependsOnVariable = DaemonEnvironment.dependsOnVariable

    /// The called verticals' names (their contracts' ``ServiceContract/name``), in declaration order.
    public let names: [String]

    /// The verticals whose contracts are given.
    public init(_ contracts: any ServiceContract.Type...) {
        self.init(names: contracts.map { $0.name })
    }

    /// The verticals named, e.g. one written in another language with no Swift contract.
    public init(names: [String]) {
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        self.names = unique
    }

    /// A vertical that calls no other.
    public static let none = Callees(names: [])

    /// Whether a call to `service` is declared.
    @inline(__always)
    public func contains(_ service: String) -> Bool {
        names.contains(service)
    }

    public var description: String {
        names.isEmpty ? "no vertical" : names.joined(separator: ", ")
    }

    /// The verticals on this list that the manifest's `depends_on` lacks, when `environment`
    /// carries it (``dependsOnVariable``): calls the callee will refuse where routes are enforced.
    public func undeclaredDependencies(environment: [String: String]) -> [String] {
        guard let declared = Self.manifestNames(environment) else { return [] }
        return names.filter { !declared.contains($0) }
    }

    /// The manifest's dependencies this list does not call, when the environment says them: a
    /// permission nobody needs.
    public func unusedDependencies(environment: [String: String]) -> [String] {
        guard let declared = Self.manifestNames(environment) else { return [] }
        return declared.filter { !contains($0) }
    }

    /// What a daemon logs at start-up when its code and its manifest entry disagree, or nil.
    ///
    /// A warning, not a refusal to start: a manifest may run a vertical without one of its
    /// callees (clinics alone, to try it), and `depends_on` can name only services it holds.
    /// The declared-routes test is where a suite's disagreement fails.
    public func disagreement(environment: [String: String], vertical: String) -> String? {
        let missing = undeclaredDependencies(environment: environment)
        let unused = unusedDependencies(environment: environment)
        var parts: [String] = []
        if !missing.isEmpty {
            let list = missing.map { "\"\($0)\"" }.joined(separator: ", ")
            parts.append(
                "its code calls \(missing.joined(separator: ", ")) (World.calls), but the manifest's \(vertical) lacks "
                    + "depends_on = [\(list)]: where routes are enforced those calls are refused")
        }
        if !unused.isEmpty {
            parts.append(
                "the manifest declares depends_on \(unused.joined(separator: ", ")), which the code never calls "
                    + "(World.calls): a route nobody needs")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The `depends_on` names `environment` carries, or nil when no manager said them.
    static func manifestNames(_ environment: [String: String]) -> [String]? {
        guard let value = environment[dependsOnVariable] else { return nil }
        return value.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
    }
}

extension String {
    fileprivate var trimmed: String {
        var view = Substring(self)
        while view.first == " " { view.removeFirst() }
        while view.last == " " { view.removeLast() }
        return String(view)
    }
}
