import Foundation
import Testing
import VerticalsContractTesting
import VerticalsTesting

/// The vertical rule (a service depends on Shared/ modules and well-kept packages only, never on
/// another service), proven from the package's own description so that it cannot rot.
@Suite("The vertical rule", .blocking)
struct VerticalRuleTests {
    @Test func noServiceReachesAnotherService_andIOInterfaceUsesOnlyWire() throws {
        let targets = try Self.packageTargets()
        let services = Set(targets.compactMap(\.service))
        #expect(
            services.isSuperset(of: ["Identity", "Clinics", "Appointments", "Records", "Notifications", "Supervisor"]))
        #expect(VerticalRule.violations(targets) == [])
    }

    /// The framework stands alone. The border follows from the package graph; the sides are
    /// checked to hold the modules each is known for, so the rule cannot pass by finding none.
    @Test func noFrameworkTargetReachesTheReferenceSuite_andTheRuntimeNoDatabase() throws {
        let graph = try Self.packageGraph()
        let border = FrameworkRule.Border(graph)
        let framework = border.framework
        #expect(
            framework.isSuperset(of: [
                "VerticalsWire", "VerticalsEventLoop", "VerticalsContract", "VerticalsServiceKit", "VerticalsStorage",
                "VerticalsSupervisor", "VerticalsSupervisorClient", "VerticalsSupervisorCommands", "VerticalsScaffold",
                "VerticalsManifest", "VerticalsDeploy", "VerticalsServiceLifecycle",
                "svc-supervisor", "svc-supervisor-engine", "vt-exec", "VerticalsTesting",
                "VerticalsContractTesting",
                "VerticalsContractGen", "VerticalsContractPlugin",
            ]))
        #expect(border.example.isSuperset(of: FrameworkRule.exampleModules))
        #expect(
            border.example.isSuperset(of: [
                "IdentityService", "svc-identity", "AppointmentsService", "svc-appointments",
            ]))
        #expect(border.framework.isDisjoint(with: border.example))
        #expect(FrameworkRule.violations(graph) == [])
    }

    /// The folders say what the graph says: a framework module under Shared/Example/, an example
    /// module beside the framework's, a library depending on a program's folder, each named.
    @Test func aModuleInTheWrongSidesFolder_orALibraryReachingIntoServices_isNamed() {
        let graph = PackageGraph(
            targets: [
                VerticalRule.Target(name: "VerticalsWire", path: "Shared/Example/Wire", dependencies: []),
                VerticalRule.Target(name: "IOInterface", path: "Shared/IOInterface", dependencies: ["VerticalsWire"]),
                VerticalRule.Target(
                    name: "VerticalsHelpers", path: "Shared/Helpers", dependencies: ["VerticalsWire", "vt-tool"]),
                VerticalRule.Target(name: "vt-tool", path: "Services/Supervisor/vt-tool", dependencies: []),
                VerticalRule.Target(name: "svc-greeter", path: "Services/Greeter/main", dependencies: ["IOInterface"]),
                VerticalRule.Target(name: "Orphan", path: "Shared/Orphan", dependencies: []),
            ],
            types: ["vt-tool": "executable", "svc-greeter": "executable"],
            products: [.init(name: "VerticalsHelpers", kind: "library", targets: ["VerticalsHelpers"])])
        let problems = FrameworkRule.placementProblems(graph, FrameworkRule.Border(graph))
        #expect(
            problems == [
                "VerticalsWire (Shared/Example/Wire) is the framework's: move it under Shared/ or Services/Supervisor/",
                "IOInterface (Shared/IOInterface) is the example's: move it under Shared/Example/ or its vertical's folder",
                "VerticalsHelpers (Shared/Helpers) depends on vt-tool (Services/Supervisor/vt-tool): a library never depends on a program's folder",
                "Orphan (Shared/Orphan) is reached by no product or program: a test target belongs under Tests/",
            ], "\(problems)")
    }

    @Test func aFrameworkTargetReachingIOInterface_orTheRuntimeReachingGRDBOrServiceLifecycle_isNamed() {
        let targets: [VerticalRule.Target] = [
            VerticalRule.Target(name: "VerticalsWire", path: "Shared/Wire", dependencies: []),
            VerticalRule.Target(
                name: "IOInterface", path: "Shared/Example/IOInterface", dependencies: ["VerticalsWire"]),
            VerticalRule.Target(name: "VerticalsStorage", path: "Shared/Storage", dependencies: ["GRDB"]),
            VerticalRule.Target(
                name: "VerticalsServiceKit", path: "Shared/ServiceKit",
                dependencies: ["VerticalsWire", "VerticalsStorage", "ServiceLifecycle"]),
            VerticalRule.Target(
                name: "svc-supervisor", path: "Services/Supervisor/svc-supervisor",
                dependencies: ["IOInterface", "TOMLKit"]),
        ]
        let graph = PackageGraph(
            targets: targets, types: ["svc-supervisor": "executable"],
            products: [
                .init(name: "VerticalsServiceKit", kind: "library", targets: ["VerticalsServiceKit"]),
                .init(name: "svc-supervisor", kind: "executable", targets: ["svc-supervisor"]),
            ])
        let problems = FrameworkRule.violations(graph).filter { !$0.contains("move it") }
        #expect(problems.contains { $0.hasPrefix("svc-supervisor") && $0.contains("reaches IOInterface") })
        #expect(problems.contains { $0.contains("VerticalsServiceKit → VerticalsStorage → GRDB") })
        #expect(
            problems.contains {
                $0.contains(
                    "VerticalsServiceKit reaches ServiceLifecycle through VerticalsServiceKit → ServiceLifecycle")
            })
        #expect(problems.contains { $0.contains("svc-supervisor reaches TOMLKit through svc-supervisor → TOMLKit") })
        #expect(problems.count == 4, "\(problems)")
    }

    /// The lean programs call verticals through VerticalsClient; the daemon runtime, and the
    /// metrics, tracing and OTLP libraries it links, stay out of them.
    @Test func aLeanProgramReachingTheRuntimeOrTheObservabilityStack_isNamedWithThePath() {
        let targets: [VerticalRule.Target] = [
            VerticalRule.Target(name: "VerticalsClient", path: "Shared/Client", dependencies: []),
            VerticalRule.Target(name: "VerticalsOTLP", path: "Shared/OTLP", dependencies: ["Tracing"]),
            VerticalRule.Target(
                name: "VerticalsServiceKit", path: "Shared/ServiceKit",
                dependencies: ["VerticalsClient", "VerticalsOTLP", "Prometheus", "CoreMetrics"]),
            VerticalRule.Target(
                name: "VerticalsSupervisorClient", path: "Shared/SupervisorClient",
                dependencies: ["VerticalsServiceKit"]),
            VerticalRule.Target(
                name: "svc-supervisor", path: "Services/Supervisor/svc-supervisor", dependencies: ["VerticalsClient"]),
            VerticalRule.Target(
                name: "vt-settings", path: "Services/Supervisor/vt-settings",
                dependencies: ["VerticalsSupervisorClient"]),
        ]
        let graph = PackageGraph(
            targets: targets, types: ["svc-supervisor": "executable", "vt-settings": "executable"],
            products: [.init(name: "svc-supervisor", kind: "executable", targets: ["svc-supervisor"])])
        let problems = FrameworkRule.violations(graph).filter { $0.contains("a lean program") }
        for path in [
            "vt-settings reaches VerticalsServiceKit through vt-settings → VerticalsSupervisorClient → VerticalsServiceKit",
            "vt-settings reaches Prometheus through vt-settings → VerticalsSupervisorClient → VerticalsServiceKit → Prometheus",
            "vt-settings reaches Tracing through vt-settings → VerticalsSupervisorClient → VerticalsServiceKit → VerticalsOTLP → Tracing",
        ] {
            #expect(problems.contains { $0.hasPrefix(path + ":") }, "\(problems)")
        }
        #expect(!problems.contains { $0.hasPrefix("svc-supervisor ") }, "\(problems)")
    }

    @Test func aShippedProgramReachingATestingLibrary_isNamedWithThePath() {
        let targets = [
            VerticalRule.Target(name: "VerticalsContractTesting", path: "Shared/ContractTesting", dependencies: []),
            VerticalRule.Target(
                name: "VerticalsChecks", path: "Shared/Checks", dependencies: ["VerticalsContractTesting"]),
            VerticalRule.Target(
                name: "svc-supervisor-engine", path: "Services/Supervisor/svc-supervisor-engine",
                dependencies: ["VerticalsChecks"]),
            VerticalRule.Target(
                name: "vt-contracts", path: "Tests/Contracts/Tool", dependencies: ["VerticalsContractTesting"]),
        ]
        let graph = PackageGraph(
            targets: targets, types: ["svc-supervisor-engine": "executable", "vt-contracts": "executable"],
            products: [.init(name: "svc-supervisor-engine", kind: "executable", targets: ["svc-supervisor-engine"])])
        let problems = FrameworkRule.violations(graph).filter { $0.contains("testing library") }
        #expect(
            problems == [
                "svc-supervisor-engine reaches the testing library VerticalsContractTesting through "
                    + "svc-supervisor-engine → VerticalsChecks → VerticalsContractTesting: a shipped program links no test code"
            ], "\(problems)")
    }

    /// The exports and the scaffold describe a suite: they link the manifest model and the
    /// contract core, never the engine, its TOML reader, a store, the runtime or the loop.
    @Test func theExportsAndTheScaffold_reachNoEngineTOMLStoreOrRuntime() throws {
        let targets = try Self.packageTargets()
        let names = Set(targets.map(\.name))
        #expect(names.isSuperset(of: FrameworkRule.describers))
        #expect(FrameworkRule.describerViolations(targets) == [])
        // The model and the contract core are all the exports stand on.
        let deploy = try #require(targets.first { $0.name == "VerticalsDeploy" })
        #expect(Set(deploy.dependencies) == ["VerticalsManifest", "VerticalsContract", "VerticalsWire"])
    }

    @Test func anExportOrScaffoldReachingTheEngine_TOMLKitOrGRDB_isNamedWithThePath() {
        let targets = [
            VerticalRule.Target(name: "VerticalsWire", path: "Shared/Wire", dependencies: []),
            VerticalRule.Target(
                name: "VerticalsManifest", path: "Shared/Manifest", dependencies: ["VerticalsWire", "TOMLKit"]),
            VerticalRule.Target(name: "VerticalsDeploy", path: "Shared/Deploy", dependencies: ["VerticalsManifest"]),
            VerticalRule.Target(name: "VerticalsStorage", path: "Shared/Storage", dependencies: ["GRDB"]),
            VerticalRule.Target(
                name: "VerticalsSupervisor", path: "Shared/Supervisor", dependencies: ["VerticalsStorage"]),
            VerticalRule.Target(
                name: "VerticalsScaffold", path: "Shared/Scaffold",
                dependencies: ["VerticalsDeploy", "VerticalsSupervisor"]),
        ]
        let problems = FrameworkRule.describerViolations(targets)
        for path in [
            "VerticalsDeploy reaches TOMLKit through VerticalsDeploy → VerticalsManifest → TOMLKit",
            "VerticalsScaffold reaches VerticalsSupervisor through VerticalsScaffold → VerticalsSupervisor",
            "VerticalsScaffold reaches GRDB through VerticalsScaffold → VerticalsSupervisor → VerticalsStorage → GRDB",
        ] {
            #expect(problems.contains { $0.hasPrefix(path + ":") }, "\(problems)")
        }
        let graph = PackageGraph(
            targets: targets,
            products: [.init(name: "VerticalsScaffold", kind: "library", targets: ["VerticalsScaffold"])])
        #expect(FrameworkRule.violations(graph).filter { $0.contains("describes a suite") } == problems)
    }

    /// The package's targets, from `swift package dump-package`.
    static func packageTargets() throws -> [VerticalRule.Target] {
        try VerticalRule.targets(dumpPackageJSON: dumpPackage())
    }

    /// The package's targets and products, from `swift package dump-package`.
    static func packageGraph() throws -> PackageGraph {
        try PackageGraph(dumpPackageJSON: dumpPackage())
    }

    /// `swift package dump-package` of the checkout, once per test run: each run compiles the
    /// manifest, seconds of CPU that every other test of a parallel run waits behind.
    static func dumpPackage() throws -> String { try dumpedPackage.get() }

    private static let dumpedPackage = Result { try dumpPackageNow() }

    private static func dumpPackageNow() throws -> String {
        let directory = TemporaryDirectory()
        // Its own scratch path: the live package's .build is locked while `swift test` runs.
        let result = try runCommand(
            "/usr/bin/env",
            [
                "swift", "package", "--package-path",
                files.folder.deletingLastPathComponent().deletingLastPathComponent().path,
                "--scratch-path", directory.file("scratch"), "dump-package",
            ],
            environment: ProcessInfo.processInfo.environment, in: directory, timeout: .seconds(60))
        guard result.status == 0 else { throw DumpPackageFailed(standardError: result.standardError) }
        return result.standardOutput
    }

    /// The framework knows nothing of the reference suite: no line of a framework target's code
    /// (comments aside) names a reference vertical, its targets or settings, or its user model's
    /// fields. A framework target is every target but the reference suite's (IOInterface, Sessions,
    /// a vertical's) and those under Tests/ outside the framework's folders (the suite's tests).
    @Test func noFrameworkTargetNamesAReferenceVertical_orItsUserModel() throws {
        let root = files.folder.deletingLastPathComponent().deletingLastPathComponent().path
        let graph = try Self.packageGraph()
        let border = FrameworkRule.Border(graph)
        let framework = graph.targets.filter { border.framework.contains($0.name) && !$0.path.hasPrefix("Tests/") }
        #expect(
            Set(framework.map(\.name)).isSuperset(of: [
                "VerticalsContract", "VerticalsSupervisorCommands", "VerticalsScaffold",
            ]))
        let found = try ReferenceKnowledge.lines(in: framework, root: root)
        #expect(found == [], "the framework names the reference suite:\n\(found.joined(separator: "\n"))")
        #expect(
            try ReferenceKnowledge.match(in: #"    members.append(("displayName", .string(name)))"#)
                == "\"displayName\"")
        #expect(try ReferenceKnowledge.match(in: #"    let peer = "svc-clinics""#) == "svc-clinics")
        #expect(
            try ReferenceKnowledge.match(in: "    /// e.g. `identity.login` and `email`") == nil,
            "a comment may show the example")
        // Inside a string, a vertical used as a name; plain English passes, and so does code interpolated.
        #expect(
            try ReferenceKnowledge.matchInString("the admin's (`daemon.backup`, identity's admin operations)")
                == "identity's")
        #expect(try ReferenceKnowledge.matchInString("Services (`\"identity.authenticate\"`)") == "identity.a")
        #expect(try ReferenceKnowledge.matchInString("The vertical, e.g. clinics.") == "e.g. clinics")
        #expect(try ReferenceKnowledge.matchInString("svc-supervisor open 'verticals://clinics/search'") == "clinics")
        #expect(try ReferenceKnowledge.matchInString("a caller with no identity, and its log records") == nil)
        let source = ##"""
            let user = identity.user.name  // "identity's"
            let text = "as \(identity.user.name), e.g. clinics"
            let help = """
                Example: svc-supervisor log-level \#(identity.name) debug
                """
            """##
        #expect(
            ReferenceKnowledge.stringLiterals(in: source).map(\.text) == [
                "as , e.g. clinics", "    Example: svc-supervisor log-level  debug",
            ])
    }

    /// The framework's tests know nothing of the reference suite either: every test target that
    /// reaches no product module (IOInterface, a vertical's code, its `svc-<vertical>` daemon), and
    /// the test support beside them, names no reference vertical, its settings or its user fields.
    /// The list is checked to hold the framework's test targets, so that one which still reaches
    /// a product module fails here instead of leaving the scan.
    @Test func noFrameworkTestNamesAReferenceVertical_orItsUserModel() throws {
        let root = files.folder.deletingLastPathComponent().deletingLastPathComponent().path
        let tests = try FrameworkRule.frameworkTests(dumpPackageJSON: Self.dumpPackage())
        let names = Set(tests.map(\.name))
        let expected: Set = [
            "WireTests", "EventLoopTests", "EventLoopIntegrationTests", "ContractGenTests", "VerticalsTestingTests",
            "SettingsTests", "ClientTests", "ServiceKitTests", "ServiceKitIntegrationTests", "StorageTests",
            "ObservabilityTests", "ManifestTests", "CertificatesTests", "ScaffoldTests",
            "SupervisorTests", "SupervisorClientTests", "SupervisorCommandsTests", "SupervisorIntegrationTests",
            "DeployTests", "VerticalsTestSupport", "VerticalsDeployTesting", "VerticalsSharedTesting", "vt-testd",
            "vt-lifecycled",
        ]
        #expect(
            names.isSuperset(of: expected),
            "these framework tests reach a product module (IOInterface, a vertical or its daemon): \(expected.subtracting(names).sorted())"
        )
        let found = try ReferenceKnowledge.lines(in: tests, root: root, inTest: true)
        #expect(found == [], "the framework's tests name the reference suite:\n\(found.joined(separator: "\n"))")
    }

    /// The rule's own check, on a made-up package: a planted name in a framework test is found;
    /// the same name in a test that reaches IOInterface (the suite's test) is the suite's business.
    @Test func aReferenceNamePlantedInAFrameworkTest_isFound_andASuiteTestIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        let planted = [
            (
                "Tests/PlantedTests/Planted.swift",
                "let peer = \"svc-clinics\"\n// a comment may say identity\nlet x = 1\n"
            ),
            ("Tests/PlantedTests/Settings.swift", "let variables = [\"IDENTITY_PWHASH_OPSLIMIT=1\"]\n"),
            (
                "Tests/PlantedTests/Routes.swift",
                "let socket = \"/run/verticals/records.sock\"\nlet route = \"clinics.nearest\"\n"
            ),
            ("Tests/Support/PlantedSupport/Fields.swift", "let field = \"displayName\"\n"),
            ("Tests/PlantedSuiteTests/Calls.swift", "let vertical = \"clinics\"\n"),
        ]
        for (path, text) in planted {
            let file = URL(fileURLWithPath: directory.file(path))
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let package = """
            {"targets": [
              {"name": "IOInterface", "path": "Shared/Example/IOInterface", "type": "regular", "dependencies": []},
              {"name": "Helper", "path": "Tests/Support/Helper", "type": "regular", "dependencies": [{"byName": ["IOInterface", null]}]},
              {"name": "PlantedTests", "path": "Tests/PlantedTests", "type": "test", "dependencies": []},
              {"name": "VerticalsPlantedSupport", "path": "Tests/Support/PlantedSupport", "type": "regular", "dependencies": []},
              {"name": "PlantedSuiteTests", "path": "Tests/PlantedSuiteTests", "type": "test", "dependencies": [{"byName": ["Helper", null]}]}
            ]}
            """
        let tests = try FrameworkRule.frameworkTests(dumpPackageJSON: package)
        #expect(tests.map(\.name) == ["PlantedTests", "VerticalsPlantedSupport"])
        let found = try ReferenceKnowledge.lines(in: tests, root: directory.path, inTest: true)
        #expect(
            found == [
                "Tests/PlantedTests/Planted.swift:1: svc-clinics",
                "Tests/PlantedTests/Routes.swift:1: /records",
                "Tests/PlantedTests/Routes.swift:2: \"clinics",
                "Tests/PlantedTests/Settings.swift:1: IDENTITY_P",
                "Tests/Support/PlantedSupport/Fields.swift:1: \"displayName\"",
            ], "\(found)")
    }

    @Test func aServiceReachingAnotherThroughAThirdTarget_isNamedWithThePath() {
        let targets = [
            VerticalRule.Target(name: "VerticalsWire", path: "Shared/Wire", dependencies: []),
            VerticalRule.Target(
                name: "IOInterface", path: "Shared/Example/IOInterface", dependencies: ["VerticalsWire", "Helpers"]),
            VerticalRule.Target(name: "Helpers", path: "Shared/Helpers", dependencies: ["IdentityService"]),
            VerticalRule.Target(
                name: "IdentityService", path: "Services/Identity/Sources", dependencies: ["IOInterface"]),
            VerticalRule.Target(
                name: "AppointmentsService", path: "Services/Appointments/Sources", dependencies: ["Helpers"]),
        ]
        let problems = VerticalRule.violations(targets)
        #expect(problems.contains { $0.hasPrefix("AppointmentsService") && $0.contains("Helpers → IdentityService") })
        #expect(problems.contains { $0.hasPrefix("IOInterface depends on Helpers") })
    }

    /// Framework products ship from `Shared/` or `Services/Supervisor/`, never from `Tests/`.
    @Test func noProductShipsFromTests() throws {
        #expect(try FrameworkRule.productsUnderTests(dumpPackageJSON: Self.dumpPackage()) == [])
        let moved = """
            {"products": [{"name": "VerticalsTesting", "targets": ["VerticalsTesting"]}],
             "targets": [{"name": "VerticalsTesting", "path": "Tests/Support/Testing", "dependencies": []}]}
            """
        #expect(
            try FrameworkRule.productsUnderTests(dumpPackageJSON: moved) == [
                "VerticalsTesting (Tests/Support/Testing) of product VerticalsTesting ships from Tests/: "
                    + "move it under Shared/ or Services/Supervisor/"
            ])
    }

    /// The framework's tests use test contracts of their own: none of their files imports IOInterface.
    @Test func noFrameworkTestFileImportsIOInterface() throws {
        let root = files.folder.deletingLastPathComponent().deletingLastPathComponent()
        let imports = FrameworkRule.ioInterfaceImports(root: root)
        #expect(FrameworkRule.ioInterfaceImportProblems(imports) == [], "\(imports.map(\.path))")

        // The scan reads the framework's test folders and skips the reference suite's.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vt-rule-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for folder in ["Tests/WireTests", "Tests/SuiteTests"] {
            let dir = scratch.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try "import IOInterface\n".write(
                to: dir.appendingPathComponent("Planted.swift"), atomically: true, encoding: .utf8)
        }
        let planted = FrameworkRule.ioInterfaceImports(root: scratch)
        #expect(planted.map(\.path) == ["Tests/WireTests/Planted.swift"])
        #expect(
            FrameworkRule.ioInterfaceImportProblems(planted) == [
                "Tests/WireTests/Planted.swift imports IOInterface, the reference suite's contracts: a framework test uses "
                    + "a test contract of its own (VerticalsTestSupport, vt-testd)"
            ])
    }

    /// Framework modules are `Verticals*` (C modules `C*`), programs `svc-*` or `vt-*` in a folder
    /// of their name: a bare module name is a product's.
    @Test func frameworkModulesAndPrograms_followTheNamingRule() throws {
        let problems = try FrameworkRule.namingProblems(dumpPackageJSON: Self.dumpPackage())
        #expect(problems == [], "\(problems)")
        let breaches = """
            {"products": [{"name": "svc-supervisor", "type": {"executable": null}, "targets": ["svc-supervisor"]}],
             "targets": [
              {"name": "SupervisorCommands", "path": "Shared/SupervisorCommands", "type": "regular", "dependencies": []},
              {"name": "svc-supervisor", "path": "Services/Supervisor/Front", "type": "executable",
               "dependencies": [{"byName": ["SupervisorCommands", null]}, {"byName": ["CSpawn", null]}]},
              {"name": "CSpawn", "path": "Shared/CLibUV/Spawn", "type": "regular", "dependencies": []},
              {"name": "IdentityService", "path": "Services/Identity/Sources", "type": "regular", "dependencies": []},
              {"name": "SupervisorTests", "path": "Services/Supervisor/Tests", "type": "test", "dependencies": []}
            ]}
            """
        #expect(
            try FrameworkRule.namingProblems(dumpPackageJSON: breaches) == [
                "framework module SupervisorCommands (Shared/SupervisorCommands) is not Verticals*: a bare name says it is a product's",
                "program svc-supervisor lives in Services/Supervisor/Front: name its folder svc-supervisor",
            ])
    }
}

/// `swift package dump-package` exited non-zero.
struct DumpPackageFailed: Error, CustomStringConvertible {
    let standardError: String
    var description: String { "swift package dump-package failed: \(standardError)" }
}
