import VerticalsWire

extension Manifest {
    /// Service names in the order they start: each after everything it depends on, ties in
    /// the order the file lists them. Throws the first dependency problem (an unknown or
    /// self dependency, or a cycle) when there is one; a manifest whose parse reported no
    /// problems never throws.
    ///
    /// ```swift
    /// // identity; clinics depends on identity; notifications on identity
    /// try manifest.startOrder()  // ["identity", "clinics", "notifications"]
    /// ```
    public func startOrder() throws(ManifestError) -> [String] {
        if let problem = dependencyProblems().first { throw problem }
        var placed: Set<String> = []
        var order: [String] = []
        while order.count < services.count {
            // The first service in file order whose dependencies have all started. One always
            // exists: the graph was just checked for cycles and unknown names.
            guard
                let next = services.first(where: { service in
                    !placed.contains(service.name) && service.dependsOn.allSatisfy(placed.contains)
                })
            else { throw ManifestError(.dependencyCycle, "no service can start: the dependencies are inconsistent") }
            placed.insert(next.name)
            order.append(next.name)
        }
        return order
    }

    /// Service names in the order they stop: ``startOrder()`` reversed, so a service stops
    /// before anything it depends on.
    public func stopOrder() throws(ManifestError) -> [String] {
        try startOrder().reversed()
    }

    /// Dependencies that cannot be met: unknown names, a service depending on itself, a name
    /// listed twice, and cycles, each named (`identity -> clinics -> identity`) once.
    package func dependencyProblems() -> [ManifestError] {
        var problems: [ManifestError] = []
        let names = Set(services.map(\.name))
        for service in services {
            var seen: Set<String> = []
            for dependency in service.dependsOn {
                if dependency == service.name {
                    problems.append(
                        ManifestError(
                            .dependencyCycle, service: service.name, key: "depends_on",
                            "a service cannot depend on itself; remove \"\(dependency)\"",
                            values: [ErrorDetail("dependency", dependency)]))
                } else if !names.contains(dependency) {
                    let hint = ManifestKeys.nearest(to: dependency, among: services.map(\.name)).map {
                        "; did you mean \"\($0)\"?"
                    }
                    problems.append(
                        ManifestError(
                            .unknownDependency, service: service.name, key: "depends_on",
                            "depends on \"\(dependency)\", which is not a service in this manifest\(hint ?? "")",
                            values: [ErrorDetail("dependency", dependency)]))
                } else if !seen.insert(dependency).inserted {
                    problems.append(
                        ManifestError(
                            .duplicate, service: service.name, key: "depends_on",
                            "lists \"\(dependency)\" more than once", values: [ErrorDetail("dependency", dependency)]))
                }
            }
        }
        for cycle in cycles() {
            let path = (cycle + [cycle[0]]).joined(separator: " -> ")
            problems.append(
                ManifestError(
                    .dependencyCycle, service: cycle[0], key: "depends_on",
                    "dependency cycle: \(path); no order can start these", values: [ErrorDetail("cycle", path)]))
        }
        return problems
    }

    /// Each dependency cycle found by a depth-first walk in file order, starting at its
    /// earliest service in the file. Self-dependencies and unknown names are left out (they
    /// are reported on their own).
    func cycles() -> [[String]] {
        let position = Dictionary(services.enumerated().map { ($1.name, $0) }) { first, _ in first }
        var state: [String: Bool] = [:] // false: on the current path; true: finished
        var path: [String] = []
        var found: [[String]] = []
        var reported: Set<[String]> = []

        func visit(_ name: String) {
            state[name] = false
            path.append(name)
            for dependency in self[name]?.dependsOn ?? [] where dependency != name && position[dependency] != nil {
                switch state[dependency] {
                case nil: visit(dependency)
                case false?:
                    var cycle = Array(path[path.lastIndex(of: dependency)!...])
                    // Start at the service the file lists first, so one cycle reads one way.
                    let start = cycle.indices.min { position[cycle[$0]]! < position[cycle[$1]]! }!
                    cycle = Array(cycle[start...] + cycle[..<start])
                    if reported.insert(cycle).inserted { found.append(cycle) }
                case true?: break
                }
            }
            path.removeLast()
            state[name] = true
        }
        for service in services where state[service.name] == nil { visit(service.name) }
        return found
    }
}
