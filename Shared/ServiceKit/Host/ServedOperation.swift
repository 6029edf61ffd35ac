/// What the request path needs of one routed operation, found with one lookup by name: its
/// route, its metric handles, and whether only internal peers may call it. The host builds the table once (``ServiceHost/served``).
///
/// A struct holding the route, not the route itself in a dictionary: a closure stored as a
/// dictionary value is kept at the most general abstraction, so every call went through a
/// reabstraction thunk, and that thunk's return hopped executors (a task status-record lock).
struct ServedOperation {
    let route: Router.Route
    let metrics: HostMetrics.OperationMetrics
    /// Listed in `PeerAccess.internalOperations`: the peer's uid is checked before it runs.
    let isInternal: Bool
    /// A streaming operation: it may never end by itself, so a draining host ends it.
    let isStream: Bool
    /// Its full name when each call is audited (``AuditLine``), else nil.
    let audited: String?

    /// The table of every operation `router` routes, with its handles in `metrics`.
    static func table(_ router: Router, metrics: HostMetrics, access: PeerAccess) -> [String: ServedOperation] {
        var table: [String: ServedOperation] = [:]
        for (name, handler) in router.routes {
            table[name] = ServedOperation(
                route: handler.route, metrics: metrics.operation(name),
                isInternal: access.internalOperations.contains(name), isStream: handler.isStream,
                audited: access.auditedOperations.contains(name) || router.auditedOperations.contains(name) ? name : nil)
        }
        return table
    }
}
