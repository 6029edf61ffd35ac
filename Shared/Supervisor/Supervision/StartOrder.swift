import VerticalsSupervisorClient
/// The order services start in: each after everything it depends on, ties in file order.
///
/// The engine's own small topological sort, so it does not wait for the manifest parser's
/// `Manifest.startOrder()`; dependencies on unknown services are ignored here (the parser's
/// check reports them), a cycle is an error.
enum StartOrder {
    static func of(_ manifest: Manifest) throws(SupervisorError) -> [String] {
        let names = Set(manifest.services.map(\.name))
        var placed: Set<String> = []
        var order: [String] = []
        while order.count < manifest.services.count {
            guard
                let next = manifest.services.first(where: { service in
                    !placed.contains(service.name)
                        && service.dependsOn.allSatisfy { placed.contains($0) || !names.contains($0) }
                })
            else {
                let left = manifest.services.map(\.name).filter { !placed.contains($0) }
                throw SupervisorError(
                    .dependencyCycle, "dependency cycle among \(left.joined(separator: ", ")): no order can start them")
            }
            placed.insert(next.name)
            order.append(next.name)
        }
        return order
    }
}
