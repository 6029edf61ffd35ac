import Foundation
import Glibc
import Testing
import AppointmentsService
import ClinicsService
import IdentityService
import NotificationsService
import RecordsService
import IOInterface // IOInterface: checks the reference suite's World.calls against its manifest and consumer contracts
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
@testable import VerticalsDeploy
import VerticalsDeployTesting
@testable import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Routes declared in code agree with the manifest's `depends_on`, operation by operation, in
/// both directions, and every host enforces that one graph.
///
/// In code, a vertical declares each operation it calls in its World's `calls` (``Callees``):
/// its caller refuses any other, and its daemon warns at start-up when the manifest differs.
/// Beside it, each callee has a consumer contract, `Services/<Vertical>/Contracts/<provider>.json`
/// (the provider's verification replays it), whose interactions name the operations it relies
/// on; and its sources may call no other operation: a `Clinics.get` in records' code, or
/// `SessionCheck` (which calls identity.authenticate), needs all three.
/// The manifest's `depends_on` is what every host enforces per operation (``ServiceAccounts``):
/// an edge in code the manifest lacks is refused at run time, one the manifest has and the code
/// does not use is a permission nobody needs.
struct DeclaredRoutesTests {
    /// One disagreement, naming the edge and where each side says it.
    struct Mismatch: CustomStringConvertible, Equatable {
        let description: String
    }

    @Test func codeAndManifest_declareTheSameOperations() throws {
        let mismatches = try Self.mismatches(
            manifest: SuiteDeployFixture.suiteManifest(), root: SuiteDeployFixture.repositoryRoot)
        #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
    }

    /// The reference suite names operations, never a whole vertical, on either side.
    @Test func theReferenceSuite_namesEachOperation_neverAWholeVertical() throws {
        let manifest = try SuiteDeployFixture.suiteManifest()
        for spec in manifest.services {
            let whole = spec.dependsOn.filter { spec.operations(of: $0) == nil }
            #expect(
                whole.isEmpty, "deploy/suite.toml [services.\(spec.name)] names \(whole) whole: name the operations")
            let calls = Self.referenceWorldCalls[spec.name] ?? .none
            let bare = calls.entries.filter { !$0.contains(".") }
            #expect(bare.isEmpty, "\(spec.name)'s World.calls names \(bare) whole: name the operations")
        }
    }

    /// No shipped vertical may declare an operator-only operation, nor one its callee does not have.
    @Test func noShippedVertical_declaresAnOperatorOnlyOperation_orOneThatDoesNotExist() throws {
        let problems = try Self.operatorOnlyProblems(
            manifest: SuiteDeployFixture.suiteManifest(), worldCalls: Self.referenceWorldCalls)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The guard's own check: a vertical that declares identity.grantRole is named, from either side.
    @Test func aVerticalDeclaringGrantRole_isNamed() throws {
        let manifest = try SuiteDeployFixture.suiteManifest(
            where: "clinics", dependsOn: ["identity.authenticate", "identity.grantRole"])
        var calls = Self.referenceWorldCalls
        calls["records"] = Callees(
            Identity.authenticate, Identity.revokeRole, Clinics.get, Clinics.getMany, Clinics.nearest)
        let problems = Self.operatorOnlyProblems(manifest: manifest, worldCalls: calls)
        #expect(
            problems.contains {
                $0.hasPrefix(
                    "clinics → identity.grantRole: deploy/suite.toml [services.clinics] depends_on declares it, but it is operator-only"
                )
            }, "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix("records → identity.revokeRole: World.calls declares it, but it is operator-only")
            }, "\(problems)")
    }

    /// The guard's own check: drop a declared operation from the manifest, and the test names the edge.
    @Test func anOperationDroppedFromTheManifest_isNamed() throws {
        let manifest = try SuiteDeployFixture.suiteManifest(
            where: "records", dependsOn: ["identity.authenticate", "clinics.get", "clinics.nearest"])
        let mismatches = try Self.mismatches(manifest: manifest, root: SuiteDeployFixture.repositoryRoot)
        #expect(mismatches.count == 1, "\(mismatches)")
        #expect(
            mismatches.first?.description.hasPrefix(
                "records → clinics.getMany: the code calls it (World.calls in Services/Records/Sources/World.swift)")
                == true, "\(mismatches)")
        #expect(mismatches.first?.description.contains("lacks depends_on = [\"clinics.getMany\"]") == true)
    }

    /// A whole vertical in the manifest covers the code's operations of it, but grants more than
    /// the code calls: named as unused.
    @Test func aWholeVerticalInTheManifest_isNamedAsMoreThanTheCodeCalls() throws {
        let manifest = try SuiteDeployFixture.suiteManifest(where: "clinics", dependsOn: ["identity"])
        let mismatches = try Self.mismatches(manifest: manifest, root: SuiteDeployFixture.repositoryRoot)
        #expect(
            mismatches.map(\.description) == [
                "clinics → identity: deploy/suite.toml declares it in depends_on, but the code calls only identity.authenticate "
                    + "of it (World.calls in Services/Clinics/Sources/World.swift): name those operations instead"
            ])
    }

    @Test func anOperationTheCodeNeverCalls_isNamed() throws {
        let manifest = try SuiteDeployFixture.suiteManifest(
            where: "clinics", dependsOn: ["identity.authenticate", "identity.getUser"])
        let mismatches = try Self.mismatches(manifest: manifest, root: SuiteDeployFixture.repositoryRoot)
        #expect(
            mismatches.map(\.description).contains {
                $0.hasPrefix("clinics → identity.getUser: deploy/suite.toml declares it")
            }, "\(mismatches)")
    }

    /// A call the World drops while the manifest, a consumer contract and the sources keep it:
    /// named from each side.
    @Test func aCallTheWorldNoLongerDeclares_isNamed() throws {
        var calls = Self.referenceWorldCalls
        calls["appointments"] = Callees(Identity.authenticate, Clinics.checkSlot)
        let mismatches = try Self.mismatches(
            manifest: SuiteDeployFixture.suiteManifest(), root: SuiteDeployFixture.repositoryRoot, worldCalls: calls)
        let texts = mismatches.map(\.description)
        #expect(
            texts.contains {
                $0.hasPrefix(
                    "appointments → notifications.send: deploy/suite.toml declares it in depends_on, but the code does not"
                )
            }, "\(texts)")
        #expect(texts.contains { $0.hasPrefix("appointments → notifications.send: a consumer contract") }, "\(texts)")
        #expect(
            texts.contains {
                $0.hasPrefix("appointments → notifications.send: Sources/") && $0.contains("does not declare it")
            }, "\(texts)")
    }

    /// A World that declares an operation no source calls, and no consumer contract pins: named.
    @Test func anOperationTheWorldDeclaresButNoSourceCalls_isNamed() throws {
        var calls = Self.referenceWorldCalls
        calls["clinics"] = Callees(Identity.authenticate, Identity.getUser)
        let manifest = try SuiteDeployFixture.suiteManifest(
            where: "clinics", dependsOn: ["identity.authenticate", "identity.getUser"])
        let mismatches = try Self.mismatches(
            manifest: manifest, root: SuiteDeployFixture.repositoryRoot, worldCalls: calls)
        let texts = mismatches.map(\.description)
        #expect(
            texts.contains {
                $0.hasPrefix(
                    "clinics → identity.getUser: World.calls in Services/Clinics/Sources/World.swift declares it, but no source file calls it"
                )
            }, "\(texts)")
        #expect(
            texts.contains {
                $0.hasPrefix(
                    "clinics → identity.getUser: World.calls in Services/Clinics/Sources/World.swift declares it, but no consumer contract"
                )
            }, "\(texts)")
    }

    /// One graph: the code's calls, per operation, are the edges of the systemd units' and the
    /// ConfigMaps' `VERTICALS_ALLOWED_OPERATIONS` (what each callee admits) and
    /// `VERTICALS_DEPENDS_ON` (what each caller declares); per vertical, of the units' uid allow
    /// lists, the ConfigMaps' certificate allow lists and the NetworkPolicies. (svc-supervisor
    /// sets the same variables through the same ``ServiceAccounts`` functions: ServiceAccountsTests.)
    @Test func everyHost_enforcesTheGraphTheCodeDeclares() throws {
        let manifest = try SuiteDeployFixture.suiteManifest()
        let operations = Set(
            manifest.services.flatMap { spec in
                (Self.referenceWorldCalls[spec.name]?.entries ?? []).map { [spec.name, $0] }
            })
        #expect(operations.count == 10, "the reference suite's ten operation routes: \(operations)")
        let code = Set(operations.map { [$0[0], Callees.service(of: $0[1])] })
        #expect(code.count == 7, "the reference suite's seven routes between verticals")

        let layout = SystemdLayout()
        let users = Dictionary(uniqueKeysWithValues: manifest.services.map { (layout.userName($0), $0.name) })
        var systemdAllowed: Set<[String]> = []
        var systemdDependsOn: Set<[String]> = []
        var systemdOperations: Set<[String]> = []
        for spec in manifest.services {
            let environment = Dictionary(
                VerticalServiceUnit.environment(spec, in: try SystemdPlacement(manifest, host: nil), layout: layout),
                uniquingKeysWith: { a, _ in a })
            for user in (environment["VERTICALS_ALLOWED_UIDS"] ?? "").split(separator: ",") {
                systemdAllowed.insert([users[String(user)] ?? "? \(user)", spec.name])
            }
            for callee in (environment["VERTICALS_DEPENDS_ON"] ?? "").split(separator: ",") {
                systemdDependsOn.insert([spec.name, String(callee)])
            }
            systemdOperations.formUnion(
                Self.operationEdges(environment["VERTICALS_ALLOWED_OPERATIONS"], callee: spec.name))
        }
        #expect(systemdAllowed == code, "systemd allow lists: \(systemdAllowed.symmetricDifference(code))")
        #expect(
            systemdDependsOn == operations,
            "systemd VERTICALS_DEPENDS_ON: \(systemdDependsOn.symmetricDifference(operations))")
        #expect(
            systemdOperations == operations,
            "systemd VERTICALS_ALLOWED_OPERATIONS: \(systemdOperations.symmetricDifference(operations))")

        let kubernetes = try SuiteDeployFixture.kubernetesManifest()
        let objects = try KubernetesExport.objects(for: kubernetes).flatMap(\.objects)
        let policies = KubernetesPolicyGraph(objects)
        #expect(policies.strays.isEmpty, "\(policies.strays)")
        #expect(policies.egress == code && policies.ingress == code, "NetworkPolicies")
        var configMaps: Set<[String]> = []
        var configMapOperations: Set<[String]> = []
        var peers: Set<[String]> = []
        for spec in kubernetes.services {
            let data = try #require(
                objects.first { $0.kind == "ConfigMap" && $0.name == "\(spec.name)-env" }?.node["data"]?.stringMap)
            for callee in (data["VERTICALS_DEPENDS_ON"] ?? "").split(separator: ",") {
                configMaps.insert([spec.name, String(callee)])
            }
            configMapOperations.formUnion(Self.operationEdges(data["VERTICALS_ALLOWED_OPERATIONS"], callee: spec.name))
            let names = (data["VERTICALS_ALLOWED_PEERS"] ?? "").split(separator: ",").map(String.init)
            #expect(names.last == "operator", "\(spec.name) admits the operator: \(names)")
            for caller in names where caller != "operator" { peers.insert([caller, spec.name]) }
        }
        #expect(
            configMaps == operations, "ConfigMaps' VERTICALS_DEPENDS_ON: \(configMaps.symmetricDifference(operations))")
        #expect(
            configMapOperations == operations,
            "ConfigMaps' VERTICALS_ALLOWED_OPERATIONS: \(configMapOperations.symmetricDifference(operations))")
        #expect(peers == code, "ConfigMaps' VERTICALS_ALLOWED_PEERS: \(peers.symmetricDifference(code))")
    }

    /// `caller → callee.operation` edges of a callee's `VERTICALS_ALLOWED_OPERATIONS`.
    static func operationEdges(_ value: String?, callee: String) -> Set<[String]> {
        Set(
            (value ?? "").split(separator: ",").map { entry in
                let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
                return [parts[0], parts.count > 1 && parts[1] != "*" ? "\(callee).\(parts[1])" : callee]
            })
    }

    // MARK: The checks

    /// Every declared operation, in code or in `manifest`, that is operator-only or that its
    /// callee's contract does not have.
    static func operatorOnlyProblems(manifest: Manifest, worldCalls: [String: Callees]) -> [String] {
        var problems: [String] = []
        for spec in manifest.services {
            let sides = [
                ("deploy/suite.toml [services.\(spec.name)] depends_on", spec.routeEntries),
                ("World.calls", worldCalls[spec.name]?.entries ?? []),
            ]
            for (side, entries) in sides {
                for entry in entries where entry.contains(".") {
                    guard let operation = Contracts.operation(entry) else {
                        problems.append(
                            "\(spec.name) → \(entry): \(side) declares it, but no contract has that operation")
                        continue
                    }
                    if operation.isOperatorOnly {
                        problems.append(
                            "\(spec.name) → \(entry): \(side) declares it, but it is operator-only: only root, the "
                                + "operator group or the operator certificate may call it, never a vertical")
                    }
                }
            }
        }
        return problems
    }

    /// Every edge on which code and `manifest` disagree, for the verticals with a folder under
    /// `root/Services`.
    static func mismatches(
        manifest: Manifest, root: String, worldCalls: [String: Callees] = referenceWorldCalls
    ) throws -> [Mismatch] {
        let names = manifest.services.map(\.name)
        var mismatches: [Mismatch] = []
        for spec in manifest.services {
            guard let folder = folder(of: spec.name, root: root) else { continue }
            let world = "World.calls in Services/\(folder)/Sources/World.swift"
            let calls = worldCalls[spec.name] ?? .none
            let declared = try consumerContracts(in: "\(root)/Services/\(folder)/Contracts")
            let called = calledOperations(in: "\(root)/Services/\(folder)/Sources", own: spec.name, among: names)
            let manifestCalls = Callees(names: spec.routeEntries)
            func mismatch(_ edge: String, _ text: String) {
                mismatches.append(Mismatch(description: "\(spec.name) → \(edge): \(text)"))
            }
            for entry in calls.entries where !manifestCalls.covers(entry) {
                mismatch(
                    entry,
                    "the code calls it (\(world)) but "
                        + "deploy/suite.toml [services.\(spec.name)] lacks depends_on = [\"\(entry)\"]: "
                        + "its calls would be refused where routes are enforced, and the daemon warns at start-up")
            }
            for entry in manifestCalls.entries where !calls.covers(entry) {
                if !entry.contains("."), let used = calls.operations(of: entry), !used.isEmpty {
                    mismatch(
                        entry,
                        "deploy/suite.toml declares it in depends_on, but the code "
                            + "calls only \(used.map { "\(entry).\($0)" }.joined(separator: ", ")) of it (\(world)): "
                            + "name those operations instead")
                } else {
                    mismatch(
                        entry,
                        "deploy/suite.toml declares it in depends_on, but "
                            + "the code does not (\(world)): drop it, or declare the call")
                }
            }
            /// The operations `found` names (each with the file it is in) against the World's
            /// calls, both ways: one the World lacks, and a call of the World's none of them is.
            func compare(_ found: [String: String], lacking: (String) -> String, unfound: (String) -> String) {
                for (operation, file) in found.sorted(by: { $0.key < $1.key }) where !calls.covers(operation) {
                    mismatch(operation, lacking(file))
                }
                for entry in calls.entries where found[entry] == nil {
                    mismatch(entry, unfound(entry))
                }
            }
            compare(
                declared,
                lacking: {
                    "a consumer contract (Services/\(folder)/Contracts/\($0)) says it calls it, but \(world) does not"
                },
                unfound: {
                    "\(world) declares it, but no consumer contract "
                        + "(Services/\(folder)/Contracts/\(Callees.service(of: $0)).json) pins what it relies on"
                })
            compare(
                called,
                lacking: { "\($0) calls it, but \(world) does not declare it (its caller would refuse the call)" },
                unfound: { _ in "\(world) declares it, but no source file calls it: a permission nobody needs" })
        }
        return mismatches
    }

    /// Each reference vertical's declared calls, read from its World (the code's own list).
    static let referenceWorldCalls: [String: Callees] = [
        "identity": IdentityService.World.calls,
        "clinics": ClinicsService.World.calls,
        "appointments": AppointmentsService.World.calls,
        "records": RecordsService.World.calls,
        "notifications": NotificationsService.World.calls,
    ]

    /// `Services/<Folder>` of vertical `name` (`lab-results` → `LabResults`), if there is one.
    static func folder(of name: String, root: String) -> String? {
        let key = name.replacingOccurrences(of: "-", with: "").lowercased()
        return FolderEntries.names(in: "\(root)/Services").first { $0.lowercased() == key }
    }

    /// `provider.operation` → file, from the interactions of each `<provider>.json` consumer
    /// contract in `folder`.
    static func consumerContracts(in folder: String) throws -> [String: String] {
        var operations: [String: String] = [:]
        for name in FolderEntries.names(in: folder) where name.hasSuffix(".json") {
            let data = try #require(FileManager.default.contents(atPath: "\(folder)/\(name)"))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let provider = try #require(object?["provider"] as? String, "\(folder)/\(name) names no provider")
            let interactions = object?["interactions"] as? [[String: Any]] ?? []
            for interaction in interactions {
                if let operation = interaction["operation"] as? String { operations["\(provider).\(operation)"] = name }
            }
        }
        return operations
    }

    /// `provider.operation` → a source file that calls it: `<Contract>.<operation>` of another
    /// vertical (`Clinics.get`), or `SessionCheck`, which calls identity.authenticate.
    static func calledOperations(in folder: String, own: String, among names: [String]) -> [String: String] {
        var called: [String: String] = [:]
        let contracts = names.filter { $0 != own }.map { name in
            (name, name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
        }
        for file in swiftFiles(under: folder) {
            guard let text = readFile(file) else { continue }
            let relative = String(file.dropFirst(folder.count - "Sources".count))
            for (name, type) in contracts {
                let pattern = try! NSRegularExpression(pattern: "\\b\(type)\\.([a-z][A-Za-z0-9]*)\\b")
                let range = NSRange(text.startIndex..., in: text)
                for match in pattern.matches(in: text, range: range) {
                    guard let operation = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else {
                        continue
                    }
                    called["\(name).\(operation)"] = called["\(name).\(operation)"] ?? relative
                }
            }
            if own != "identity", names.contains("identity"), text.contains("SessionCheck") {
                called["identity.authenticate"] = called["identity.authenticate"] ?? relative
            }
        }
        return called
    }

    static func swiftFiles(under folder: String) -> [String] {
        FolderEntries.names(in: folder).sorted().flatMap { name -> [String] in
            let path = "\(folder)/\(name)"
            var info = stat()
            guard lstat(path, &info) == 0 else { return [] }
            if info.st_mode & S_IFMT == S_IFDIR { return swiftFiles(under: path) }
            return name.hasSuffix(".swift") ? [path] : []
        }
    }
}
