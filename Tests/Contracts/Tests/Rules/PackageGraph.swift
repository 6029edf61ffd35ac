import VerticalsContractTesting
import VerticalsWire

/// The package as `swift package dump-package` describes it: its targets (name, path, type and
/// dependencies) and its products. The border between the framework and the example follows from
/// it (``FrameworkRule``), not from a list of folders kept by hand.
struct PackageGraph: Sendable {
    /// One product: its name, kind (`library`, `executable`, `plugin`) and targets.
    struct Product: Sendable, Equatable {
        var name: String
        var kind: String
        var targets: [String]
    }

    var targets: [VerticalRule.Target]
    /// Each target's type (`regular`, `executable`, `test`, `system-target`, `plugin`…) by name.
    var types: [String: String]
    var products: [Product]

    /// A graph from its parts (a made-up package of a test).
    init(targets: [VerticalRule.Target], types: [String: String] = [:], products: [Product]) {
        (self.targets, self.types, self.products) = (targets, types, products)
    }

    /// Reads `dump-package`'s JSON; `products` may be absent (a made-up package of a test). A
    /// target's build-tool plugins of this package count among its dependencies: building it
    /// builds them and their tools.
    init(dumpPackageJSON text: String) throws {
        var targets = try VerticalRule.targets(dumpPackageJSON: text)
        guard case .object(let root) = try JSONValue(parsing: text) else { throw VerticalRuleError.notAPackage }
        var types: [String: String] = [:]
        var plugins: [String: [String]] = [:]
        if case .array(let list)? = root.first(where: { $0.key == "targets" })?.value {
            for case .object(let members) in list {
                guard case .string(let name)? = members.first(where: { $0.key == "name" })?.value else { continue }
                if case .string(let type)? = members.first(where: { $0.key == "type" })?.value { types[name] = type }
                // {"pluginUsages": [{"plugin": [name, package or null]}]}: null is this package's.
                if case .array(let usages)? = members.first(where: { $0.key == "pluginUsages" })?.value {
                    for case .object(let usage) in usages {
                        guard case .array(let fields)? = usage.first?.value, case .string(let plugin)? = fields.first,
                            fields.count < 2 || fields[1] == .null
                        else { continue }
                        plugins[name, default: []].append(plugin)
                    }
                }
            }
        }
        for index in targets.indices { targets[index].dependencies += plugins[targets[index].name] ?? [] }
        self.targets = targets
        self.types = types
        var products: [Product] = []
        if case .array(let list)? = root.first(where: { $0.key == "products" })?.value {
            for case .object(let members) in list {
                guard case .string(let name)? = members.first(where: { $0.key == "name" })?.value else { continue }
                var targets: [String] = []
                if case .array(let names)? = members.first(where: { $0.key == "targets" })?.value {
                    for case .string(let target) in names { targets.append(target) }
                }
                // {"type": {"library": ["automatic"]}}, {"type": {"executable": null}}, {"type": {"plugin": null}}
                var kind = ""
                if case .object(let type)? = members.first(where: { $0.key == "type" })?.value, let first = type.first {
                    kind = first.key
                }
                products.append(Product(name: name, kind: kind, targets: targets))
            }
        }
        self.products = products
    }

    /// Targets by name.
    var byName: [String: VerticalRule.Target] {
        Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The names of `roots` and of every package target they reach.
    func closure(_ roots: some Sequence<String>) -> Set<String> {
        let byName = byName
        var found: Set<String> = []
        for root in roots {
            guard let start = byName[root], found.insert(root).inserted else { continue }
            for (reached, _) in VerticalRule.reachable(from: start, byName) { found.insert(reached.name) }
        }
        return found
    }
}

extension VerticalRuleError {
    static let notAPackage = VerticalRuleError("dump-package printed no JSON object")
}
