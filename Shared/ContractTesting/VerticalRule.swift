import VerticalsWire

/// The vertical rule, checked on the package's own description (`swift package
/// dump-package`): no service target reaches another service's target, directly or through
/// other targets, and IOInterface depends on Wire alone. A service is a folder of
/// `Services/`; its targets are those whose path lies inside it.
public enum VerticalRule {
    /// One target of the package: its name, path and the package targets it names.
    public struct Target: Sendable, Equatable {
        /// The target's name.
        public var name: String
        /// Its path in the package, e.g. `Services/Identity/Sources`.
        public var path: String
        /// The names of its dependencies (targets or products).
        public var dependencies: [String]

        /// Creates a target.
        public init(name: String, path: String, dependencies: [String]) {
            self.name = name
            self.path = path
            self.dependencies = dependencies
        }

        /// `Identity` for `Services/Identity/Sources`; nil outside `Services/`.
        public var service: String? {
            let parts = path.split(separator: "/")
            return parts.count >= 2 && parts[0] == "Services" ? String(parts[1]) : nil
        }
    }

    /// The targets of `dump-package`'s JSON.
    public static func targets(dumpPackageJSON text: String) throws -> [Target] {
        guard case .object(let root) = try JSONValue(parsing: text),
            case .array(let targets)? = root.first(where: { $0.key == "targets" })?.value
        else { throw VerticalRuleError("dump-package printed no `targets` array") }
        return try targets.map { target in
            guard case .object(let members) = target,
                case .string(let name)? = members.first(where: { $0.key == "name" })?.value
            else { throw VerticalRuleError("a target without a name") }
            var path = ""
            if case .string(let text)? = members.first(where: { $0.key == "path" })?.value { path = text }
            var dependencies: [String] = []
            if case .array(let list)? = members.first(where: { $0.key == "dependencies" })?.value {
                for dependency in list {
                    // {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, …]}
                    guard case .object(let kinds) = dependency, let kind = kinds.first,
                        case .array(let fields) = kind.value, case .string(let dependencyName)? = fields.first
                    else { continue }
                    dependencies.append(dependencyName)
                }
            }
            return Target(name: name, path: path, dependencies: dependencies)
        }
    }

    /// What the contracts module may depend on: the wire's types and the contract core (DTOs and
    /// protocols only, as the seeds' interface modules are), with the settings model the core
    /// declares the framework's own settings in.
    static let interfaceMayUse: Set<String> = ["VerticalsWire", "VerticalsContract", "VerticalsSettings"]

    /// Every breach of the rule, in words naming the targets and the path between them.
    public static func violations(_ targets: [Target]) -> [String] {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for target in targets {
            guard let service = target.service else { continue }
            for (reached, chain) in reachable(from: target, byName) {
                if let other = reached.service, other != service {
                    problems.append(
                        "\(target.name) (Services/\(service)) depends on \(reached.name) (Services/\(other)) "
                            + "through \(chain.joined(separator: " → ")): verticals meet only through IOInterface")
                }
            }
        }
        if let interface = byName["IOInterface"] {
            for (reached, chain) in reachable(from: interface, byName) where !interfaceMayUse.contains(reached.name) {
                problems.append(
                    "IOInterface depends on \(reached.name) through \(chain.joined(separator: " → ")): "
                        + "it may use Wire and the contract core only")
            }
            for name in interface.dependencies where byName[name] == nil {
                problems.append(
                    "IOInterface depends on the package product \(name): it may use Wire and the contract core only")
            }
        }
        return problems
    }

    /// Every package target `start` reaches, with the chain of names that leads there
    /// (`[start, …, reached]`), nearest first.
    public static func reachable(from start: Target, _ byName: [String: Target]) -> [(Target, [String])] {
        var found: [(Target, [String])] = []
        var seen: Set<String> = [start.name]
        var queue: [(Target, [String])] = [(start, [start.name])]
        while !queue.isEmpty {
            let (current, chain) = queue.removeFirst()
            for name in current.dependencies where !seen.contains(name) {
                guard let next = byName[name] else { continue }
                seen.insert(name)
                found.append((next, chain + [name]))
                queue.append((next, chain + [name]))
            }
        }
        return found
    }
}

/// `dump-package` output the rule cannot read.
///
/// Its ``code`` is `unreadable`.
public struct VerticalRuleError: CodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<VerticalRuleError>

    /// What could not be read.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// What kind of problem it is: always `unreadable`.
    public var code: Code { .unreadable }
}

extension ErrorKind where Domain == VerticalRuleError {
    /// `swift package dump-package` printed something the rule cannot read.
    public static var unreadable: Self { Self("unreadable") }
}
