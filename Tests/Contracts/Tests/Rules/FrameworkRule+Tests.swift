import Foundation
import VerticalsContractTesting
import VerticalsWire

/// The framework's tests and libraries stand apart from the reference suite: no product ships
/// from `Tests/` (``productsUnderTests(dumpPackageJSON:)``), and the framework's tests use test
/// contracts of their own, so none of their files imports IOInterface (``ioInterfaceImportProblems(_:)``).
extension FrameworkRule {
    /// Test folders of the reference suite: its verticals', its contracts', its session stubs',
    /// the whole suite's and its deployment's. Every other folder under `Tests/` holds the framework's tests.
    static let referenceTestFolders = [
        "Tests/Services", "Tests/SuiteTests", "Tests/SuiteDeployTests", "Tests/IOInterfaceTests", "Tests/Contracts",
        "Tests/Support/SessionsTesting",
    ]

    /// Each product target of `dump-package`'s JSON whose path lies under `Tests/`, in words
    /// (`VerticalsTesting (Tests/Support/Testing) of product VerticalsTesting`).
    static func productsUnderTests(dumpPackageJSON text: String) throws -> [String] {
        let paths = Dictionary(
            try VerticalRule.targets(dumpPackageJSON: text).map { ($0.name, $0.path) },
            uniquingKeysWith: { first, _ in first })
        guard case .object(let root) = try JSONValue(parsing: text),
            case .array(let products)? = root.first(where: { $0.key == "products" })?.value
        else { throw VerticalRuleError("dump-package printed no `products` array") }
        var problems: [String] = []
        for product in products {
            guard case .object(let members) = product,
                case .string(let name)? = members.first(where: { $0.key == "name" })?.value,
                case .array(let targets)? = members.first(where: { $0.key == "targets" })?.value
            else { throw VerticalRuleError("a product without a name or targets") }
            for case .string(let target) in targets {
                let path = paths[target] ?? ""
                if inside(path, "Tests") {
                    problems.append(
                        "\(target) (\(path)) of product \(name) ships from Tests/: move it under Shared/ or Services/Supervisor/"
                    )
                }
            }
        }
        return problems
    }

    /// Every line importing IOInterface in a Swift file of the framework's tests under `root`
    /// (the checkout), with the file's path relative to it, in path order.
    static func ioInterfaceImports(root: URL) -> [(path: String, line: String)] {
        let tests = root.appendingPathComponent("Tests")
        let paths = (FileManager.default.enumerator(atPath: tests.path)?.allObjects as? [String] ?? []).sorted()
        return paths.compactMap { relative in
            let path = "Tests/" + relative
            guard path.hasSuffix(".swift"), !referenceTestFolders.contains(where: { inside(path, $0) }),
                let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            else { return nil }
            let line = text.split(separator: "\n").first { line in
                var words = line.split(separator: " ")
                if words.first == "@testable" { words.removeFirst() }
                return words.count >= 2 && words[0] == "import" && words[1] == "IOInterface"
            }
            return line.map { (path, String($0)) }
        }
    }

    /// What is wrong with `imports` (from ``ioInterfaceImports(root:)``): every one of them, since
    /// the framework's tests run on test contracts of their own (VerticalsTestSupport, vt-testd).
    static func ioInterfaceImportProblems(_ imports: [(path: String, line: String)]) -> [String] {
        imports.map {
            "\($0.path) imports IOInterface, the reference suite's contracts: a framework test uses a test contract "
                + "of its own (VerticalsTestSupport, vt-testd)"
        }
    }
}

extension FrameworkRule {
    /// The framework's tests and their support, from `dump-package`'s JSON: every test target,
    /// and every other target under `Tests/`, that reaches no target of the reference suite
    /// (``Border/example``: its contracts, a vertical's code or daemon, its session check),
    /// directly or through others. A test that reaches one is the reference suite's own.
    static func frameworkTests(dumpPackageJSON text: String) throws -> [VerticalRule.Target] {
        let graph = try PackageGraph(dumpPackageJSON: text)
        let border = Border(graph)
        let byName = graph.byName
        let example = border.example.union(exampleModules)
        return graph.targets.filter { target in
            guard graph.types[target.name] == "test" || inside(target.path, "Tests") else { return false }
            return !example.contains(target.name)
                && !VerticalRule.reachable(from: target, byName).contains { example.contains($0.0.name) }
        }
    }
}
