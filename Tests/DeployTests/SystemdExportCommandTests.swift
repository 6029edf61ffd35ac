import Glibc
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// `svc-supervisor export systemd`: it writes what ``SystemdExport`` makes of the manifest, then
/// only what changed, removes the units a manifest no longer has, and refuses a broken manifest.
@Suite(.serialized) struct SystemdExportCommandTests {
    @Test func exportCommand_writesOnlyWhatChanged_andRemovesUnitsNoLongerInTheManifest() throws {
        let directory = TemporaryDirectory()
        let out = directory.file("systemd")
        let manifest = DeployFixture.suitePath
        let first = try runCommand(
            "svc-supervisor", ["export", "systemd", "--manifest", manifest, "--out", out], in: directory)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        let expected = try SystemdExport.files(for: DeployFixture.suiteManifest())
        let count = expected.count
        #expect(first.standardOutput.hasSuffix("\(count) files in \(out), \(count) changed\n"))
        #expect(ExportedFiles.onDisk(out) == expected)

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
}
