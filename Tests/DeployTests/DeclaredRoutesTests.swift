import Foundation
import Glibc
import Testing
import AppointmentsService
import ClinicsService
import IdentityService
import NotificationsService
import RecordsService
import VerticalsServiceKit
@testable import VerticalsDeploy
@testable import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Routes declared in code agree with the manifest's `depends_on`, in both directions.
///
/// In code, a vertical declares each vertical it calls in its World's `calls` (``Callees``):
/// its caller refuses any other, and its daemon warns at start-up when the manifest lacks one.
/// Beside it, each callee has a consumer contract, `Services/<Vertical>/Contracts/<provider>.json`
/// (the provider's verification replays it), and its sources may call no other contract: a
/// `Clinics.get` in records' code, or `SessionCheck` (which calls identity), needs both.
/// The manifest's `depends_on` is what both hosts enforce (``ServiceAccounts``): an edge in
/// code the manifest lacks is refused at run time, one the manifest has and the code does not
/// use is a permission nobody needs.
struct DeclaredRoutesTests {
    /// One disagreement, naming the edge and where each side says it.
    struct Mismatch: CustomStringConvertible, Equatable {
        let description: String
    }

    @Test func codeAndManifest_declareTheSameRoutes() throws {
        let mismatches = try Self.mismatches(
            manifest: DeployFixture.suiteManifest(), root: DeployFixture.repositoryRoot)
        #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
    }

    /// The guard's own check: drop a declared dependency from the manifest, and the test
    /// names the edge.
    @Test func aDependencyDroppedFromTheManifest_isNamed() throws {
        var manifest = try DeployFixture.suiteManifest()
        let index = try #require(manifest.services.firstIndex { $0.name == "appointments" })
        manifest.services[index].dependsOn.removeAll { $0 == "notifications" }
        let mismatches = try Self.mismatches(manifest: manifest, root: DeployFixture.repositoryRoot)
        #expect(mismatches.count == 1)
        #expect(
            mismatches.first?.description.hasPrefix(
                "appointments → notifications: the code calls it (World.calls in Services/Appointments/Sources/World.swift)")
                == true, "\(mismatches)")
        #expect(mismatches.first?.description.contains("lacks depends_on = [\"notifications\"]") == true)
    }

    @Test func aDependencyTheCodeNeverCalls_isNamed() throws {
        var manifest = try DeployFixture.suiteManifest()
        let index = try #require(manifest.services.firstIndex { $0.name == "clinics" })
        manifest.services[index].dependsOn.append("records")
        let mismatches = try Self.mismatches(manifest: manifest, root: DeployFixture.repositoryRoot)
        #expect(mismatches.map(\.description).contains { $0.hasPrefix("clinics → records: deploy/suite.toml declares it") })
    }

    /// A call the World drops while the manifest and a consumer contract keep it: named from
    /// both sides.
    @Test func aCallTheWorldNoLongerDeclares_isNamed() throws {
        var calls = Self.referenceWorldCalls
        calls["appointments"] = Callees(names: ["identity", "clinics"])
        let mismatches = try Self.mismatches(
            manifest: DeployFixture.suiteManifest(), root: DeployFixture.repositoryRoot, worldCalls: calls)
        let texts = mismatches.map(\.description)
        #expect(texts.contains { $0.hasPrefix("appointments → notifications: deploy/suite.toml declares it in depends_on, but the code does not") }, "\(texts)")
        #expect(texts.contains { $0.hasPrefix("appointments → notifications: a consumer contract") }, "\(texts)")
        #expect(texts.contains { $0.hasPrefix("appointments → notifications: Sources/") && $0.contains("does not declare it") }, "\(texts)")
    }

    /// One graph: the code's calls, the systemd units' allow lists, their and the
    /// ConfigMaps' `VERTICALS_DEPENDS_ON`, and the NetworkPolicies are the same edges, caller →
    /// callee. (The supervisor's own allow lists equal the units' by ServiceAccountsTests.)
    @Test func everyHost_enforcesTheGraphTheCodeDeclares() throws {
        let manifest = try DeployFixture.suiteManifest()
        let code = Set(manifest.services.flatMap { spec in
            (Self.referenceWorldCalls[spec.name]?.names ?? []).map { [spec.name, $0] }
        })
        #expect(code.count == 7, "the reference suite's seven routes")

        let layout = SystemdLayout()
        let users = Dictionary(uniqueKeysWithValues: manifest.services.map { (layout.userName($0), $0.name) })
        var systemdAllowed: Set<[String]> = []
        var systemdDependsOn: Set<[String]> = []
        for spec in manifest.services {
            let environment = Dictionary(
                VerticalServiceUnit.environment(spec, in: try SystemdPlacement(manifest, host: nil), layout: layout), uniquingKeysWith: { a, _ in a })
            for user in (environment["VERTICALS_ALLOWED_UIDS"] ?? "").split(separator: ",") {
                systemdAllowed.insert([users[String(user)] ?? "? \(user)", spec.name])
            }
            for callee in (environment["VERTICALS_DEPENDS_ON"] ?? "").split(separator: ",") {
                systemdDependsOn.insert([spec.name, String(callee)])
            }
        }
        #expect(systemdAllowed == code, "systemd allow lists: \(systemdAllowed.symmetricDifference(code))")
        #expect(systemdDependsOn == code, "systemd VERTICALS_DEPENDS_ON: \(systemdDependsOn.symmetricDifference(code))")

        let kubernetes = try KubernetesFixture.suiteManifest()
        let objects = KubernetesFixture.all(try KubernetesExport.objects(for: kubernetes))
        let policies = KubernetesGraphTests.policyGraph(objects)
        #expect(policies.egress == code && policies.ingress == code, "NetworkPolicies")
        var configMaps: Set<[String]> = []
        for spec in kubernetes.services {
            let data = try #require(objects.first { $0.kind == "ConfigMap" && $0.name == "\(spec.name)-env" }?.node["data"]?.stringMap)
            for callee in (data["VERTICALS_DEPENDS_ON"] ?? "").split(separator: ",") { configMaps.insert([spec.name, String(callee)]) }
        }
        #expect(configMaps == code, "ConfigMaps' VERTICALS_DEPENDS_ON: \(configMaps.symmetricDifference(code))")
        var peers: Set<[String]> = []
        for spec in kubernetes.services {
            let data = try #require(objects.first { $0.kind == "ConfigMap" && $0.name == "\(spec.name)-env" }?.node["data"]?.stringMap)
            let names = (data["VERTICALS_ALLOWED_PEERS"] ?? "").split(separator: ",").map(String.init)
            #expect(names.last == "operator", "\(spec.name) admits the operator: \(names)")
            for caller in names where caller != "operator" { peers.insert([caller, spec.name]) }
        }
        #expect(peers == code, "ConfigMaps' VERTICALS_ALLOWED_PEERS: \(peers.symmetricDifference(code))")
    }

    // MARK: The check

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
            let calls = worldCalls[spec.name]?.names ?? []
            let declared = try consumerContracts(in: "\(root)/Services/\(folder)/Contracts")
            let called = calledContracts(in: "\(root)/Services/\(folder)/Sources", own: spec.name, among: names)
            let manifestEdges = Set(spec.dependsOn)
            for provider in calls where !manifestEdges.contains(provider) {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): the code calls it (\(world)) but "
                            + "deploy/suite.toml [services.\(spec.name)] lacks depends_on = [\"\(provider)\"]: "
                            + "its calls would be refused where routes are enforced, and the daemon warns at start-up"))
            }
            for provider in manifestEdges.sorted() where !calls.contains(provider) {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): deploy/suite.toml declares it in depends_on, but "
                            + "the code does not (\(world)): drop it, or declare the call"))
            }
            for provider in declared.keys.sorted() where !calls.contains(provider) {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): a consumer contract (Services/\(folder)/Contracts/"
                            + "\(provider).json) says it calls it, but \(world) does not"))
            }
            for provider in calls where declared[provider] == nil {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): \(world) declares it, but no consumer contract "
                            + "Services/\(folder)/Contracts/\(provider).json pins what it relies on"))
            }
            for (provider, file) in called.sorted(by: { $0.key < $1.key }) where !calls.contains(provider) {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): \(file) calls it, but \(world) does not "
                            + "declare it (its caller would refuse the call)"))
            }
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

    /// Provider → file, from each `<provider>.json` consumer contract in `folder`.
    static func consumerContracts(in folder: String) throws -> [String: String] {
        var providers: [String: String] = [:]
        for name in FolderEntries.names(in: folder) where name.hasSuffix(".json") {
            let data = try #require(FileManager.default.contents(atPath: "\(folder)/\(name)"))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let provider = try #require(object?["provider"] as? String, "\(folder)/\(name) names no provider")
            providers[provider] = name
        }
        return providers
    }

    /// Provider → a source file that calls it: `<Contract>.<operation>` of another vertical
    /// (`Clinics.get`), or `SessionCheck`, which asks identity.
    static func calledContracts(in folder: String, own: String, among names: [String]) -> [String: String] {
        var called: [String: String] = [:]
        let contracts = names.filter { $0 != own }.map { name in
            (name, name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
        }
        for file in swiftFiles(under: folder) {
            guard let text = readFile(file) else { continue }
            let relative = String(file.dropFirst(folder.count - "Sources".count))
            for (name, type) in contracts where text.range(of: "\\b\(type)\\.[a-z]", options: .regularExpression) != nil {
                called[name] = called[name] ?? relative
            }
            if own != "identity", names.contains("identity"), text.contains("SessionCheck") {
                called["identity"] = called["identity"] ?? relative
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
