import Foundation
import Glibc
import Testing
import VerticalsSupervisor
import VerticalsTesting

/// Routes declared in code agree with the manifest's `depends_on`, in both directions (issue 22 §3).
///
/// In code, a vertical declares each vertical it calls with a consumer contract,
/// `Services/<Vertical>/Contracts/<provider>.json`, kept beside the calls (the provider's
/// verification replays it). And its sources may call no other contract than those: a
/// `Clinics.get` in records' code, or `SessionCheck` (which calls identity), needs the file.
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

    /// The check the issue asks for: drop a declared dependency from the manifest, and the test
    /// names the edge.
    @Test func aDependencyDroppedFromTheManifest_isNamed() throws {
        var manifest = try DeployFixture.suiteManifest()
        let index = try #require(manifest.services.firstIndex { $0.name == "appointments" })
        manifest.services[index].dependsOn.removeAll { $0 == "notifications" }
        let mismatches = try Self.mismatches(manifest: manifest, root: DeployFixture.repositoryRoot)
        #expect(mismatches.count == 1)
        #expect(
            mismatches.first?.description.hasPrefix(
                "appointments → notifications: the code calls it (Services/Appointments/Contracts/notifications.json")
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

    // MARK: The check

    /// Every edge on which code and `manifest` disagree, for the verticals with a folder under
    /// `root/Services`.
    static func mismatches(manifest: Manifest, root: String) throws -> [Mismatch] {
        let names = manifest.services.map(\.name)
        var mismatches: [Mismatch] = []
        for spec in manifest.services {
            guard let folder = folder(of: spec.name, root: root) else { continue }
            let declared = try consumerContracts(in: "\(root)/Services/\(folder)/Contracts")
            let called = calledContracts(in: "\(root)/Services/\(folder)/Sources", own: spec.name, among: names)
            let manifestEdges = Set(spec.dependsOn)
            for provider in declared.keys.sorted() where !manifestEdges.contains(provider) {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): the code calls it (Services/\(folder)/Contracts/"
                            + "\(provider).json) but deploy/suite.toml [services.\(spec.name)] lacks "
                            + "depends_on = [\"\(provider)\"]: its calls would be refused"))
            }
            for provider in manifestEdges.sorted() where declared[provider] == nil {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): deploy/suite.toml declares it in depends_on, but "
                            + "the code declares no call (no Services/\(folder)/Contracts/\(provider).json): "
                            + "drop it, or add the consumer contract"))
            }
            for (provider, file) in called.sorted(by: { $0.key < $1.key }) where declared[provider] == nil {
                mismatches.append(
                    Mismatch(
                        description: "\(spec.name) → \(provider): \(file) calls it, but no consumer contract "
                            + "Services/\(folder)/Contracts/\(provider).json declares it"))
            }
        }
        return mismatches
    }

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
