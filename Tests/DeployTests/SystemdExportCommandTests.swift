import Glibc
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// `svc-supervisor export systemd`: it writes what ``SystemdExport`` makes of the manifest, then
/// only what changed, removes the units a manifest no longer has, and refuses a broken manifest.
@Suite(.blocking, .serialized) struct SystemdExportCommandTests {
    @Test func exportCommand_writesOnlyWhatChanged_andRemovesUnitsNoLongerInTheManifest() throws {
        let directory = TemporaryDirectory()
        try DeployFixture.expectExportWritesThenOnlyWhatChanged(
            "systemd", expected: SystemdExport.files(for: DeployFixture.suiteManifest()),
            stale: "verticals-gone.service",
            foreign: "README", in: directory)
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

    /// Root writes units only into a folder no other user could swap them in.
    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is root's"))
    func exportAsRoot_intoAFolderAnyUserMayWrite_isRefused_withExit73() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let open = directory.file("open")
        mkdir(open, 0o777)
        chmod(open, 0o777)
        let manifest = directory.file("suite.toml")
        #expect(writeText("[services.a]\nexecutable = \"svc-a\"\n", to: manifest))
        let refused = try runCommand(
            "svc-supervisor", ["export", "systemd", "--manifest", manifest, "--out", "\(open)/units"], in: directory)
        #expect(refused.status == 73)
        #expect(refused.standardOutput.contains("\(open) may be written by any user"), "\(refused.standardOutput)")
        #expect(FolderEntries.names(in: "\(open)/units").isEmpty, "a unit was written")
        let written = try runCommand(
            "svc-supervisor", ["export", "systemd", "--manifest", manifest, "--out", directory.file("units")],
            in: directory)
        #expect(written.status == 0, "\(written.standardOutput)")
    }
}
