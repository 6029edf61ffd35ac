/// What the request path needs of one routed operation, found with one lookup by name: its
/// route and its metric handles. The host builds the table once (``ServiceHost/served``).
///
/// A struct holding the route, not the route itself in a dictionary: a closure stored as a
/// dictionary value is kept at the most general abstraction, so every call went through a
/// reabstraction thunk, and that thunk's return hopped executors (a task status-record lock).
struct ServedOperation {
    let route: Router.Route
    let metrics: HostMetrics.OperationMetrics

    /// The table of every operation `router` routes, with its handles in `metrics`.
    static func table(_ router: Router, metrics: HostMetrics) -> [String: ServedOperation] {
        var table: [String: ServedOperation] = [:]
        for (name, handler) in router.routes {
            table[name] = ServedOperation(route: handler.route, metrics: metrics.operation(name))
        }
        return table
    }
}
