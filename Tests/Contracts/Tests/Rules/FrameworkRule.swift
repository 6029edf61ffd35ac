import VerticalsContractTesting

/// The framework rule, checked on the package's own description like ``VerticalRule``: no
/// framework target reaches the reference suite (its contracts in IOInterface, its verticals'
/// code, its session check), directly or through other targets, so a product built on the
/// framework compiles none of it; and the runtime (``runtime``) reaches no database library,
/// which a vertical opts into with VerticalsStorage; the lean programs (``leanPrograms``) reach no
/// TOML reader, store, engine, daemon runtime or observability stack (``heavyForLean``); and the modules that
/// describe a suite without running it (``describers``) reach none of ``heavyForDescribers``;
/// and no shipped program (``shippedPrograms(_:)``) links a testing library.
///
/// Which targets are which follows from the package graph (``Border``), so a new target is
/// placed the day it is added: the framework is everything a `Verticals*` product or a
/// supervisor program reaches; the example is what the verticals' programs and the example's
/// products reach beyond it. The folders are then checked against the graph: the framework under
/// `Shared/` or `Services/Supervisor/`, the example under `Shared/Example/` or its vertical's folder.
enum FrameworkRule {
    /// The example's own modules beside its verticals: its contracts, its session check and the C
    /// module only identity links. The framework must reach none of them.
    static let exampleModules: Set<String> = ["IOInterface", "Sessions", "CSodium"]

    /// The framework and the example, as the package graph says.
    struct Border: Sendable {
        /// What a `Verticals*` product, an executable or plugin product, or a program under
        /// `Services/Supervisor/` reaches.
        var framework: Set<String>
        /// What the verticals' programs (`Services/<Vertical>/`) and the other library products reach
        /// that the framework does not.
        var example: Set<String>
        /// Where each starts: the roots of each side.
        var frameworkRoots: Set<String>

        init(_ graph: PackageGraph) {
            var frameworkRoots: Set<String> = []
            var exampleRoots: Set<String> = []
            for product in graph.products {
                if product.name.hasPrefix("Verticals") || product.kind == "executable" || product.kind == "plugin" {
                    frameworkRoots.formUnion(product.targets)
                } else {
                    exampleRoots.formUnion(product.targets)
                }
            }
            for target in graph.targets
            where graph.types[target.name] == "executable" || graph.types[target.name] == "plugin" {
                switch target.service {
                case "Supervisor"?: frameworkRoots.insert(target.name)
                case _?: exampleRoots.insert(target.name)
                case nil: break
                }
            }
            self.frameworkRoots = frameworkRoots
            framework = graph.closure(frameworkRoots)
            example = graph.closure(exampleRoots).subtracting(framework)
        }
    }

    /// Whether `target` belongs to the reference suite in `border`.
    static func isReference(_ target: VerticalRule.Target, in border: Border) -> Bool {
        border.example.contains(target.name)
    }

    /// Whether `target` is part of the framework in `border`.
    static func isFramework(_ target: VerticalRule.Target, in border: Border) -> Bool {
        border.framework.contains(target.name)
    }

    /// The runtime every daemon links, which must not reach a database library.
    static let runtime = "VerticalsServiceKit"

    /// The package products that are a database library.
    static let databaseProducts: Set<String> = ["GRDB", "GRDBSQLite"]

    /// What the runtime must not reach either: swift-service-lifecycle (and through it
    /// swift-async-algorithms and swift-collections), which only a daemon that joins its
    /// `ServiceGroup` links, through VerticalsServiceLifecycle.
    static let ecosystemLifecycle: Set<String> = ["ServiceLifecycle"]

    /// The programs that must load fast and stay small: `svc-supervisor`, which a script runs for
    /// every call, and `vt-settings`, which prints the settings reference. They reach none of
    /// ``heavyForLean`` (svc-supervisor-engine does what needs them).
    static let leanPrograms = ["svc-supervisor", "vt-settings"]

    /// What a lean program must not reach: the manifest's TOML reader (which brings Foundation
    /// and ICU), SQLite, the daemon runtime, observability (its module, the metrics and tracing
    /// libraries and the OTLP exporter), and the targets that link them. Calling a vertical needs
    /// VerticalsClient alone.
    static let heavyForLean: Set<String> = [
        "TOMLKit", "GRDB", "GRDBSQLite", "VerticalsStorage", "VerticalsSupervisor", "VerticalsScaffold",
        "VerticalsServiceKit", "VerticalsObservability", "Prometheus", "CoreMetrics", "Tracing", "VerticalsOTLP",
    ]

    /// The programs `make install` ships in `graph`: the supervisor's and the verticals' daemons,
    /// every `svc-` executable.
    static func shippedPrograms(_ graph: PackageGraph) -> [VerticalRule.Target] {
        graph.targets.filter { graph.types[$0.name] == "executable" && $0.name.hasPrefix("svc-") }
    }

    /// The libraries only tests link: a shipped program reaches none of them.
    static let testingLibraries: Set<String> = ["VerticalsTesting", "VerticalsContractTesting"]

    /// The modules that describe a suite without running it: the manifest model, the exports
    /// (systemd, Kubernetes, Containerfile) and the scaffold of `svc-supervisor new` and `init`.
    static let describers = ["VerticalsManifest", "VerticalsDeploy", "VerticalsScaffold"]

    /// What a describer must not reach: the engine, its TOML reader, a store, the daemon runtime
    /// and the event loop (libuv, OpenSSL). A product's own deploy tool links the exports alone.
    static let heavyForDescribers: Set<String> = [
        "VerticalsSupervisor", "TOMLKit", "GRDB", "GRDBSQLite", "VerticalsStorage", "VerticalsServiceKit",
        "VerticalsEventLoop",
    ]

    /// Every path from one of ``describers`` to one of ``heavyForDescribers``, in words.
    static func describerViolations(_ targets: [VerticalRule.Target]) -> [String] {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for describer in describers.compactMap({ byName[$0] }) {
            for (name, path) in paths(from: describer, to: heavyForDescribers, byName) {
                problems.append(
                    "\(describer.name) reaches \(name) through \(path): "
                        + "it describes a suite, and must build without the engine, TOML reader, store or runtime")
            }
        }
        return problems
    }

    /// Every breach, in words naming the targets and the path between them.
    static func violations(_ graph: PackageGraph) -> [String] {
        let targets = graph.targets
        let byName = graph.byName
        var problems: [String] = []
        let border = Border(graph)
        for root in border.frameworkRoots.sorted() {
            guard let target = byName[root] else { continue }
            for (reached, chain) in [(target, [target.name])] + VerticalRule.reachable(from: target, byName)
            where exampleModules.contains(reached.name) || (reached.service.map { $0 != "Supervisor" } ?? false) {
                problems.append(
                    "\(target.name) (\(target.path)) reaches \(reached.name) of the reference suite through "
                        + "\(chain.joined(separator: " → ")): the framework must build without it")
            }
        }
        problems += placementProblems(graph, border)
        if let runtime = byName[runtime] {
            let reached = [(runtime, [runtime.name])] + VerticalRule.reachable(from: runtime, byName)
            for (target, chain) in reached {
                for product in target.dependencies where databaseProducts.contains(product) && byName[product] == nil {
                    problems.append(
                        "\(runtime.name) reaches the database library \(product) through "
                            + "\((chain + [product]).joined(separator: " → ")): storage is a library a vertical opts into"
                    )
                }
            }
        }
        if let runtime = byName[runtime] {
            for (name, path) in paths(from: runtime, to: ecosystemLifecycle, byName) {
                problems.append(
                    "\(runtime.name) reaches \(name) through \(path): "
                        + "only a daemon that joins a ServiceGroup links it, through VerticalsServiceLifecycle")
            }
        }
        for lean in leanPrograms.compactMap({ byName[$0] }) {
            for (name, path) in paths(from: lean, to: heavyForLean, byName) {
                problems.append(
                    "\(lean.name) reaches \(name) through \(path): "
                        + "a lean program must not load it (svc-supervisor-engine does)")
            }
        }
        for program in shippedPrograms(graph) {
            for (name, path) in paths(from: program, to: testingLibraries, byName) {
                problems.append(
                    "\(program.name) reaches the testing library \(name) through \(path): a shipped program links no test code"
                )
            }
        }
        return problems + describerViolations(targets)
    }

    /// Each target whose folder says another side than the graph does, and each edge from
    /// `Shared/` into `Services/`, in words.
    static func placementProblems(_ graph: PackageGraph, _ border: Border) -> [String] {
        let byName = graph.byName
        var problems: [String] = []
        for target in graph.targets where !inside(target.path, "Tests") {
            let inExampleFolder =
                inside(target.path, "Shared/Example") || (target.service.map { $0 != "Supervisor" } ?? false)
            if border.framework.contains(target.name), inExampleFolder {
                problems.append(
                    "\(target.name) (\(target.path)) is the framework's: move it under Shared/ or Services/Supervisor/")
            } else if border.example.contains(target.name), !inExampleFolder {
                problems.append(
                    "\(target.name) (\(target.path)) is the example's: move it under Shared/Example/ or its vertical's folder"
                )
            } else if !border.framework.contains(target.name), !border.example.contains(target.name) {
                problems.append(
                    "\(target.name) (\(target.path)) is reached by no product or program: a test target belongs under Tests/"
                )
            }
            if inside(target.path, "Shared") {
                for name in target.dependencies {
                    guard let dependency = byName[name], inside(dependency.path, "Services") else { continue }
                    problems.append(
                        "\(target.name) (\(target.path)) depends on \(name) (\(dependency.path)): a library never depends on a program's folder"
                    )
                }
            }
        }
        return problems
    }

    /// Each dependency of `start` or of a target it reaches that is one of `forbidden`, with the
    /// path to it in words (`A → B → TOMLKit`).
    private static func paths(
        from start: VerticalRule.Target, to forbidden: Set<String>, _ byName: [String: VerticalRule.Target]
    ) -> [(name: String, path: String)] {
        let reached = [(start, [start.name])] + VerticalRule.reachable(from: start, byName)
        return reached.flatMap { target, chain in
            target.dependencies.filter(forbidden.contains).map { ($0, (chain + [$0]).joined(separator: " → ")) }
        }
    }

    /// Whether `path` is `folder` or lies under it.
    static func inside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder + "/")
    }
}
