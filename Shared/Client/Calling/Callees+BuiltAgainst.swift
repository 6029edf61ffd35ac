import VerticalsContract

extension Callees {
    /// What this build was compiled against for each called vertical, in declaration order: a
    /// description holding only the operations declared (``linked``) and the messages they
    /// reach. `svc-supervisor can-i-deploy` compares it with what the callee serves.
    public var builtAgainst: [Daemon.Description] {
        names.compactMap { service in
            let operations = linked.filter { $0.service == service }
            guard !operations.isEmpty else { return nil }
            return ServiceDescription.make(name: service, summary: "", operations: operations)
        }
    }

    /// The declared entries whose schemas this build does not know: those given by name alone
    /// (``init(names:)``, a vertical in another language). Nothing can be said of them before
    /// they are called.
    public var undescribedEntries: [String] {
        entries.filter { entry in
            let service = Self.service(of: entry)
            if entry == service { return !linked.contains { $0.service == service } }
            return !linked.contains { $0.fullName == entry }
        }
    }
}
