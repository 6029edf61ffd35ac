/// The framework rule, checked on the package's own description like ``VerticalRule``: no
/// framework target reaches the reference suite (its contracts in IOInterface, its verticals'
/// code, its session check), directly or through other targets, so a product built on the
/// framework compiles none of it; and the runtime (``runtime``) reaches no database library,
/// which a vertical opts into with VerticalsStorage; the lean `svc-supervisor` reaches no
/// TOML reader, store or engine (``heavyForLean``); and the modules that describe a suite
/// without running it (``describers``) reach none of ``heavyForDescribers``.
///
/// Which targets are which is decided by folder, so a new framework target is covered the day
/// it is added: see ``isReference(_:)`` and ``isFramework(_:)``.
public enum FrameworkRule {
    /// Folders of the reference suite: the example product, not the framework.
    public static let referenceFolders = ["Shared/Example", "Services/Identity/CSodium", "Tests/Support/SessionsTesting"]

    /// Folders of the framework: the runtime, the contract core and generator, storage, the
    /// manifest model and the exports, the supervisor and its CLI, the testing and
    /// contract-testing libraries.
    public static let frameworkFolders = [
        "Shared/Wire", "Shared/EventLoop", "Shared/CLibUV", "Shared/Contract", "Shared/ContractGen", "Shared/ServiceKit",
        "Shared/ServiceLifecycle", "Shared/Storage", "Shared/Manifest", "Shared/Deploy", "Services/Supervisor", "Shared/Testing",
        "Shared/ContractTesting", "Shared/SupervisorClient", "Shared/Supervisor", "Shared/Certificates", "Shared/Scaffold",
        "Shared/SupervisorCommands", "Shared/CFrameworkDefaults", "Shared/OTLP", "Shared/CSSL", "Shared/CZlib", "Shared/CSpawn",
    ]

    /// The runtime every daemon links, which must not reach a database library.
    public static let runtime = "VerticalsServiceKit"

    /// The package products that are a database library.
    public static let databaseProducts: Set<String> = ["GRDB", "GRDBSQLite"]

    /// What the runtime must not reach either: swift-service-lifecycle (and through it
    /// swift-async-algorithms and swift-collections), which only a daemon that joins its
    /// `ServiceGroup` links, through VerticalsServiceLifecycle.
    public static let ecosystemLifecycle: Set<String> = ["ServiceLifecycle"]

    /// The program a script runs for every call, which must load fast: it reaches none of
    /// ``heavyForLean`` (svc-supervisor-engine does what needs them).
    public static let leanProgram = "svc-supervisor"

    /// What the lean program must not reach: the manifest's TOML reader (which brings Foundation
    /// and ICU), SQLite, and the targets that link them.
    public static let heavyForLean: Set<String> = [
        "TOMLKit", "GRDB", "GRDBSQLite", "VerticalsStorage", "VerticalsSupervisor", "VerticalsScaffold",
    ]

    /// The modules that describe a suite without running it: the manifest model, the exports
    /// (systemd, Kubernetes, Containerfile) and the scaffold of `svc-supervisor new` and `init`.
    public static let describers = ["VerticalsManifest", "VerticalsDeploy", "VerticalsScaffold"]

    /// What a describer must not reach: the engine, its TOML reader, a store, the daemon runtime
    /// and the event loop (libuv, OpenSSL). A product's own deploy tool links the exports alone.
    public static let heavyForDescribers: Set<String> = [
        "VerticalsSupervisor", "TOMLKit", "GRDB", "GRDBSQLite", "VerticalsStorage", "VerticalsServiceKit",
        "VerticalsEventLoop",
    ]

    /// Every path from one of ``describers`` to one of ``heavyForDescribers``, in words.
    public static func describerViolations(_ targets: [VerticalRule.Target]) -> [String] {
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

    /// Whether `target` belongs to the reference suite: a vertical's folder of `Services/`
    /// (not the supervisor's) or one of ``referenceFolders``.
    public static func isReference(_ target: VerticalRule.Target) -> Bool {
        if let service = target.service { return service != "Supervisor" }
        return referenceFolders.contains { inside(target.path, $0) }
    }

    /// Whether `target` is part of the framework (one of ``frameworkFolders``).
    public static func isFramework(_ target: VerticalRule.Target) -> Bool {
        frameworkFolders.contains { inside(target.path, $0) }
    }

    /// Every breach, in words naming the targets and the path between them.
    public static func violations(_ targets: [VerticalRule.Target]) -> [String] {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for target in targets where isFramework(target) {
            for (reached, chain) in VerticalRule.reachable(from: target, byName) where isReference(reached) {
                problems.append(
                    "\(target.name) (\(target.path)) reaches \(reached.name) of the reference suite through "
                        + "\(chain.joined(separator: " → ")): the framework must build without it")
            }
        }
        if let runtime = byName[runtime] {
            let reached = [(runtime, [runtime.name])] + VerticalRule.reachable(from: runtime, byName)
            for (target, chain) in reached {
                for product in target.dependencies where databaseProducts.contains(product) && byName[product] == nil {
                    problems.append(
                        "\(runtime.name) reaches the database library \(product) through "
                            + "\((chain + [product]).joined(separator: " → ")): storage is a library a vertical opts into")
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
        if let lean = byName[leanProgram] {
            for (name, path) in paths(from: lean, to: heavyForLean, byName) {
                problems.append(
                    "\(lean.name) reaches \(name) through \(path): "
                        + "the program every scripted call starts must not load it (svc-supervisor-engine does)")
            }
        }
        return problems + describerViolations(targets)
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
