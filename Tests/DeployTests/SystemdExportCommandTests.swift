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
        try DeployFixture.expectExportWritesThenOnlyWhatChanged(
            "systemd", expected: SystemdExport.files(for: DeployFixture.suiteManifest()), stale: "verticals-gone.service",
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
}
