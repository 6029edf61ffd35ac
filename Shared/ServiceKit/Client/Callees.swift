import VerticalsContract

/// The verticals a vertical calls, declared once in its code: its World's `calls`.
///
/// The declaration is the code's side of the vertical's routes; the manifest's `depends_on`
/// is the operators' side, and both hosts enforce that one (the callee admits only the callers
/// that declare it). The two are made to agree three ways:
/// - a World's caller is a ``DeclaredCaller``: a call to a contract the list lacks is refused
///   before a byte is sent, so an undeclared route fails in the first unit test that takes it;
/// - a daemon whose manager says what the manifest declares (``dependsOnVariable``, which
///   svc-supervisor, the systemd units and the Kubernetes ConfigMaps all set) refuses to start
///   when the list names a vertical the manifest does not (``check(environment:vertical:)``);
/// - the repository's declared-routes test compares each vertical's list with the manifest in
///   both directions and names the edge.
///
/// ```swift
/// package static let calls = Callees(Identity.self, Clinics.self, Notifications.self)
/// ```
public struct Callees: Sendable, Equatable, CustomStringConvertible {
    /// The environment variable that carries the manifest's `depends_on` of the daemon it is
    /// given to: the names, comma-separated (empty when it declares none).
    public static let dependsOnVariable = "VERTICALS_DEPENDS_ON"

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

    /// Refuses a start whose manager declares fewer routes than the code calls: when
    /// `environment` carries ``dependsOnVariable``, every name on this list must be in it.
    ///
    /// A name the manifest declares that the code never calls is a permission nobody needs, but
    /// no reason to stay down: ``unusedDependencies(environment:)`` lists those for a warning.
    public func check(environment: [String: String], vertical: String) throws(UndeclaredCallees) {
        guard let declared = Self.manifestNames(environment) else { return }
        let missing = names.filter { !declared.contains($0) }
        if !missing.isEmpty { throw UndeclaredCallees(vertical: vertical, missing: missing) }
    }

    /// The manifest's dependencies this list does not call, when the environment says them.
    public func unusedDependencies(environment: [String: String]) -> [String] {
        guard let declared = Self.manifestNames(environment) else { return [] }
        return declared.filter { !contains($0) }
    }

    /// The `depends_on` names `environment` carries, or nil when no manager said them.
    static func manifestNames(_ environment: [String: String]) -> [String]? {
        guard let value = environment[dependsOnVariable] else { return nil }
        return value.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
    }
}

/// A daemon whose code calls a vertical its manifest does not declare: under either host the
/// callee would refuse every such call (`permissionDenied`), so the daemon does not start, and
/// says which `depends_on` to add (or which call to remove). No restart can mend it.
public struct UndeclaredCallees: Error, RestartCannotHelp, CustomStringConvertible {
    /// The vertical that would make the calls.
    public let vertical: String
    /// The verticals its code calls and its manifest entry lacks.
    public let missing: [String]

    public var description: String {
        let list = missing.map { "\"\($0)\"" }.joined(separator: ", ")
        return "its code calls \(missing.joined(separator: ", ")) (World.calls), but the manifest's "
            + "\(vertical) lacks depends_on = [\(list)]: add it, or remove the calls"
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
