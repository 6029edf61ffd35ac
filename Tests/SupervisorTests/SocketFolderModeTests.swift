import Glibc
import Testing
import VerticalsDeploy
import VerticalsManifest
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsSharedTesting

/// The socket folder grants the same under `svc-supervisor up` and under systemd: 0750, root and
/// the operator group (``ServiceAccounts/socketFolderMode``; docs/systemd.md, "The socket folder").
struct SocketFolderModeTests {
    @Test func up_andTheSystemdExport_giveTheSocketFolderOneMode() throws {
        #expect(ServiceAccounts.socketFolderMode == 0o750, "other gets no bit: only root and the group pass")
        #expect(RunDirectory.socketFolderMode == mode_t(ServiceAccounts.socketFolderMode))

        let (manifest, problems) = ManifestParser.parse(
            text:
                "[services.alpha]\nexecutable = \"svc-alpha\"\n[services.beta]\nexecutable = \"svc-beta\"\ndepends_on = [\"alpha\"]\n",
            baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        #expect(problems.isEmpty, "\(problems)")
        let files = try SystemdExport.files(for: manifest)
        let tmpfiles = try #require(files["tmpfiles.d/verticals.conf"])
        #expect(tmpfiles.contains("\nd /run/verticals 0750 root verticals -\n"), "\(tmpfiles)")
        for name in ["verticals-alpha.socket", "verticals-beta.socket"] {
            let unit = try #require(files[name])
            let modes = unit.split(separator: "\n").filter { $0.hasPrefix("DirectoryMode=") }
            #expect(
                modes.map { UInt32($0.dropFirst("DirectoryMode=".count), radix: 8) } == [
                    ServiceAccounts.socketFolderMode
                ], "\(name): \(modes)")
        }
        let committed = try #require(
            readFile(ManifestFixture.repositoryRoot + "/deploy/systemd/tmpfiles.d/verticals.conf"))
        #expect(committed.contains("\nd /run/verticals 0750 root verticals -\n"))
    }

    @Test func up_makesTheSocketFolderWithThatMode() throws {
        let folder = TemporaryDirectory()
        try withExtendedLifetime(folder) {
            let run = RunDirectory(folder.file("run"))
            try run.prepare()
            var info = stat()
            #expect(stat(run.socketDirectory, &info) == 0)
            #expect(info.st_mode & 0o777 == RunDirectory.socketFolderMode)
        }
    }
}
