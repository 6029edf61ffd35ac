/// `depends_on` by operation: each entry is a vertical (`"identity"`, every operation of it that
/// is not operator-only) or one of its operations (`"identity.authenticate"`). The verticals
/// order the start and draw the network graph (``ServiceSpec/dependsOn``); the operations are
/// what the callee admits its caller to (``ServiceAccounts/applyRoutes(to:for:in:)``).
extension ServiceSpec {
    /// `depends_on` as written, for `VERTICALS_DEPENDS_ON`: each vertical's operations, or the
    /// vertical alone when it is named whole.
    public var routeEntries: [String] {
        dependsOn.flatMap { callee -> [String] in
            guard let operations = dependsOnOperations[callee], !operations.isEmpty else { return [callee] }
            return operations.map { "\(callee).\($0)" }
        }
    }

    /// The operations of `callee` this service may call: their names, or nil when it names
    /// the callee whole (or not at all: see ``dependsOn``).
    public func operations(of callee: String) -> [String]? {
        guard let operations = dependsOnOperations[callee], !operations.isEmpty else { return nil }
        return operations
    }

    /// Sets ``dependsOn`` and ``dependsOnOperations`` from `depends_on`'s entries; returns what is
    /// wrong with them (a malformed operation, a vertical named both whole and by operation, an
    /// operation named twice), each to report under `depends_on`. A vertical listed twice stays
    /// twice in ``dependsOn``, for the dependency check to name.
    @discardableResult
    public mutating func setDependsOn(_ entries: [String]) -> [String] {
        var services: [String] = []
        var operations: [String: [String]] = [:]
        var whole: Set<String> = []
        var problems: [String] = []
        for entry in entries {
            guard let dot = entry.firstIndex(of: ".") else {
                if whole.contains(entry) || operations[entry] == nil { services.append(entry) }
                whole.insert(entry)
                continue
            }
            let callee = String(entry[..<dot])
            let operation = String(entry[entry.index(after: dot)...])
            guard Self.isOperationName(operation), !callee.isEmpty else {
                problems.append(
                    "\"\(entry)\" is not a vertical nor VERTICAL.operation (an operation is a name like "
                        + "authenticate: letters and digits, starting with a lower-case letter)")
                continue
            }
            if operations[callee] == nil && !whole.contains(callee) { services.append(callee) }
            if operations[callee]?.contains(operation) == true {
                problems.append("lists \"\(entry)\" more than once")
                continue
            }
            operations[callee, default: []].append(operation)
        }
        for callee in services where whole.contains(callee) && operations[callee] != nil {
            problems.append(
                "names \"\(callee)\" whole and \(operations[callee]!.map { "\"\(callee).\($0)\"" }.joined(separator: ", ")) "
                    + "by operation: name its operations, or the vertical alone (every operation of it that is not operator-only)"
            )
        }
        dependsOn = services
        dependsOnOperations = operations.filter { !whole.contains($0.key) }
        return problems
    }

    /// Whether `name` can be an operation's name: `[a-z][A-Za-z0-9]*`, as the contracts write them.
    public static func isOperationName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
    }
}
