import VerticalsContract

/// The operations a vertical calls, declared once in its code: its World's `calls`.
///
/// The declaration is the code's side of the vertical's routes; the manifest's `depends_on`
/// is the operators' side, and every host enforces that one per operation (the callee admits a
/// caller to the operations its `depends_on` names, and no others). The two are made to agree
/// three ways:
/// - a World's caller is a ``DeclaredCaller``: a call to an operation the list lacks is refused
///   before a byte is sent, naming the edge, so an undeclared route fails in the first unit
///   test that takes it;
/// - a daemon whose manager says what the manifest declares (``dependsOnVariable``, which
///   svc-supervisor, the systemd units and the Kubernetes ConfigMaps all set) warns at start-up
///   when the two differ, naming the edge (``disagreement(environment:vertical:)``);
/// - the repository's declared-routes test compares each vertical's list with the manifest in
///   both directions and names the edge.
///
/// ```swift
/// package static let calls = Callees(Identity.authenticate, Clinics.checkSlot, Notifications.send)
/// ```
///
/// A whole vertical (`Callees(Identity.self)`, `Callees(names: ["identity"])`) is accepted for a
/// product's convenience (what `svc-supervisor new --calls` writes) and means every operation of
/// it that is not operator-only; the reference suite names each operation.
public struct Callees: Sendable, Equatable, CustomStringConvertible {
    /// The environment variable that carries the manifest's `depends_on` of the daemon it is
    /// given to: the entries (`identity.authenticate`, or a bare vertical), comma-separated
    /// (empty when it declares none).
    public static let dependsOnVariable = DaemonEnvironment.dependsOnVariable

    /// The declared calls as written: `service.operation`, or a bare vertical `service` (any
    /// operation of it that is not operator-only), in declaration order, each once.
    public let entries: [String]

    /// The called verticals' names (their contracts' `ServiceContract/name`), in declaration order.
    public let names: [String]

    /// The declared operations as this build links them (Input, Output, error codes): what the
    /// caller was compiled against, which `--describe` prints (``builtAgainst``). Empty for the
    /// entries given by name alone (``init(names:)``), which ``undescribedEntries`` lists.
    public let linked: [OperationDescriptor]

    /// The operations given, e.g. `Callees(Identity.authenticate, Clinics.checkSlot)`.
    public init(_ operations: any NamedOperation...) {
        self.init(
            names: operations.map(\.qualifiedName),
            linked: operations.compactMap { ($0 as? any LinkedOperation)?.descriptor })
    }

    /// Every operation that is not operator-only of the verticals whose contracts are given: a
    /// product's convenience. Prefer naming the operations.
    public init(_ contracts: any ServiceContract.Type...) {
        self.init(
            names: contracts.map { $0.name },
            linked: contracts.flatMap { $0.operations.filter { !$0.isOperatorOnly } })
    }

    /// The calls named, `service.operation` or a bare `service`: for a vertical written in another
    /// language, with no Swift contract to name its operations with. Such a list knows no schema
    /// (``undescribedEntries`` is all of it).
    public init(names: [String]) {
        self.init(names: names, linked: [])
    }

    private init(names: [String], linked: [OperationDescriptor]) {
        var unique: [String] = []
        for name in names.map(\.trimmed) where !name.isEmpty && !unique.contains(name) { unique.append(name) }
        entries = unique
        var services: [String] = []
        for entry in unique {
            let service = Self.service(of: entry)
            if !services.contains(service) { services.append(service) }
        }
        self.names = services
        var kept: [OperationDescriptor] = []
        for operation in linked where !kept.contains(where: { $0.fullName == operation.fullName }) {
            kept.append(operation)
        }
        self.linked = kept
    }

    /// Equal when they declare the same entries and link the same operations (by name).
    public static func == (lhs: Callees, rhs: Callees) -> Bool {
        lhs.entries == rhs.entries && lhs.linked.map(\.fullName) == rhs.linked.map(\.fullName)
    }

    /// A vertical that calls no other.
    public static let none = Callees(names: [])

    /// Whether any call to `service` is declared.
    @inline(__always)
    public func contains(_ service: String) -> Bool {
        names.contains(service)
    }

    /// Whether a call to `service`'s `operation` is declared: by name, or by a bare vertical
    /// (which never covers an operator-only operation: `operatorOnly`).
    public func allows(service: String, operation: String, operatorOnly: Bool = false) -> Bool {
        allows(fullName: "\(service).\(operation)", service: service, operatorOnly: operatorOnly)
    }

    /// The same for an operation's kept `fullName` (`service.operation`): a few string
    /// comparisons against a handful of entries, no formatting, no hashing.
    @inline(__always)
    public func allows(fullName: String, service: String, operatorOnly: Bool) -> Bool {
        for entry in entries where entry == fullName || (!operatorOnly && entry == service) { return true }
        return false
    }

    /// Whether `operation` is declared.
    public func allows(_ operation: any NamedOperation) -> Bool {
        allows(service: operation.service, operation: operation.name, operatorOnly: operation.isOperatorOnly)
    }

    /// The operations of `service` named one by one, or nil when the vertical is declared whole.
    public func operations(of service: String) -> [String]? {
        var operations: [String] = []
        for entry in entries {
            if entry == service { return nil }
            if Self.service(of: entry) == service { operations.append(String(entry.dropFirst(service.count + 1))) }
        }
        return operations
    }

    public var description: String {
        entries.isEmpty ? "no operation" : entries.joined(separator: ", ")
    }

    /// The entries on this list that the manifest's `depends_on` does not cover, when
    /// `environment` carries it (``dependsOnVariable``): calls the callee will refuse.
    public func undeclaredDependencies(environment: [String: String]) -> [String] {
        guard let declared = Self.manifestNames(environment) else { return [] }
        let manifest = Callees(names: declared)
        return entries.filter { !manifest.covers($0) }
    }

    /// The manifest's `depends_on` entries this list does not cover, when the environment says
    /// them: a permission nobody needs.
    public func unusedDependencies(environment: [String: String]) -> [String] {
        guard let declared = Self.manifestNames(environment) else { return [] }
        return Callees(names: declared).entries.filter { !covers($0) }
    }

    /// Whether every call `entry` allows is allowed here too.
    public func covers(_ entry: String) -> Bool {
        guard let dot = entry.firstIndex(of: ".") else { return entries.contains(entry) }
        return allows(service: String(entry[..<dot]), operation: String(entry[entry.index(after: dot)...]))
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

    /// The vertical an entry names: what comes before its first dot.
    public static func service(of entry: String) -> String {
        entry.firstIndex(of: ".").map { String(entry[..<$0]) } ?? entry
    }

    /// The `depends_on` entries `environment` carries, or nil when no manager said them.
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
