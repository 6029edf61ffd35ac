import Glibc
import Testing
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// `deploy/systemd/` is generated: it must be exactly what `svc-supervisor export systemd` writes now.
@Suite(.serialized) struct CommittedUnitsTests {
    static let folder = "\(DeployFixture.repositoryRoot)/deploy/systemd"

    @Test func committedFiles_areAFreshExport() throws {
        let fresh = try SystemdExport.files(for: DeployFixture.suiteManifest())
        let committed = Self.filesOnDisk(Self.folder)
        let missing = fresh.keys.filter { committed[$0] == nil }.sorted()
        let extra = committed.keys.filter { fresh[$0] == nil }.sorted()
        let differing = fresh.keys.filter { committed[$0] != nil && committed[$0] != fresh[$0] }.sorted()
        let advice = "run: svc-supervisor export systemd --out deploy/systemd"
        #expect(missing.isEmpty, "deploy/systemd lacks \(missing.joined(separator: ", ")); \(advice)")
        #expect(extra.isEmpty, "deploy/systemd has files the manifest does not produce: \(extra.joined(separator: ", "))")
        for path in differing {
            let line = Self.firstDifference(committed[path] ?? "", fresh[path] ?? "")
            Issue.record("deploy/systemd/\(path) differs from a fresh export at line \(line); \(advice)")
        }
    }

    @Test func exportCommand_writesOnlyWhatChanged_andRemovesUnitsNoLongerInTheManifest() throws {
        let directory = TemporaryDirectory()
        let out = directory.file("systemd")
        let manifest = "\(DeployFixture.repositoryRoot)/deploy/suite.toml"
        let first = try runCommand(
            "svc-supervisor", ["export", "systemd", "--manifest", manifest, "--out", out], in: directory)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        let count = try SystemdExport.files(for: DeployFixture.suiteManifest()).count
        #expect(first.standardOutput.hasSuffix("\(count) files in \(out), \(count) changed\n"))
        #expect(Self.filesOnDisk(out) == Self.filesOnDisk(Self.folder))

        #expect(writeText("stale\n", to: "\(out)/verticals-gone.service"))
        #expect(writeText("mine\n", to: "\(out)/README"))
        let second = try runCommand(
            "svc-supervisor", ["export", "systemd", "--manifest", manifest, "--out", out], in: directory)
        #expect(second.status == 0)
        #expect(
            second.standardOutput
                == "removed \(out)/verticals-gone.service (no longer in the manifest)\n\(count) files in \(out), 0 changed\n")
        #expect(readFile("\(out)/README") == "mine\n")
    }

    @Test func exportCommand_refusesABrokenManifest_withExit65() throws {
        let directory = TemporaryDirectory()
        let manifest = directory.file("suite.toml")
        #expect(writeText("[services.a]\nexecutable = \"svc-a\"\ndepends_on = [\"b\"]\n", to: manifest))
        let result = try runCommand(
            "svc-supervisor", ["export", "systemd", "--manifest", manifest, "--out", directory.file("out")],
            in: directory)
        #expect(result.status == 65)
        #expect(result.standardOutput.contains("services.a.depends_on"))
        #expect(access(directory.file("out"), F_OK) != 0)
    }

    /// Every file under `folder`, by path relative to it (one level of sub-folders).
    static func filesOnDisk(_ folder: String) -> [String: String] {
        var files: [String: String] = [:]
        for name in names(in: folder) {
            let path = "\(folder)/\(name)"
            if names(in: path).isEmpty, let text = readFile(path) {
                files[name] = text
            } else {
                for inner in names(in: path) { files["\(name)/\(inner)"] = readFile("\(path)/\(inner)") }
            }
        }
        return files
    }

    private static func names(in folder: String) -> [String] {
        FolderEntries.names(in: folder)
    }

    /// The 1-based number of the first line where `a` and `b` differ.
    private static func firstDifference(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        return (Array(zip(left, right)).firstIndex { $0.0 != $0.1 } ?? min(left.count, right.count)) + 1
    }
}

/// Writes `text` to `path`; whether it worked.
func writeText(_ text: String, to path: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    defer { fclose(file) }
    return fputs(text, file) >= 0
}
