import Glibc
import Testing
import VerticalsDeployTesting
import VerticalsTesting

/// `scripts/install-suite.sh`, which the framework's `make install` and every product's run: the
/// programs and the exported systemd files of the manifest's suite under DESTDIR+PREFIX, named
/// after its `[suite] name`, and the manifest where the supervisor's unit reads it, an existing one kept.
@Suite(.blocking) struct InstallSuiteScriptTests {
    static let script = "\(DeployFixture.repositoryRoot)/scripts/install-suite.sh"

    func install(_ manifest: String, into staged: String, in directory: TemporaryDirectory) throws -> CommandResult {
        try runCommand(
            "/bin/bash",
            [Self.script, DaemonProcess.productsDirectory, "/usr", staged, manifest, "", "svc-supervisor", "vt-exec"],
            in: directory, timeout: .seconds(60))
    }

    @Test func aProductsSuite_isInstalledUnderItsOwnNames_andItsManifestKeptOnceThere() throws {
        let directory = TemporaryDirectory()
        let reference = try #require(readFile("\(DeployFixture.repositoryRoot)/deploy/suite.toml"))
        let manifest = directory.file("suite.toml")
        #expect(writeText("[suite]\nname = \"acme\"\n\n" + reference, to: manifest))
        let staged = directory.file("staged")

        let first = try install(manifest, into: staged, in: directory)

        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        #expect(first.standardOutput.contains("systemctl enable --now acme.target"), "\(first.standardOutput)")
        for program in ["svc-supervisor", "vt-exec"] {
            #expect(access("\(staged)/usr/bin/\(program)", X_OK) == 0, "\(program) not installed")
        }
        for file in [
            "lib/systemd/system/acme.target", "lib/systemd/system/acme-identity.service",
            "lib/systemd/system/acme-identity.socket", "lib/systemd/system/acme-secrets.conf",
            "lib/sysusers.d/acme.conf", "lib/tmpfiles.d/acme.conf", "etc/acme/suite.toml",
        ] {
            #expect(access("\(staged)/usr/\(file)", R_OK) == 0, "\(file) not installed")
        }
        #expect(
            access("\(staged)/usr/lib/systemd/system/verticals.target", F_OK) != 0, "the framework's names were used")

        // The operator's own manifest, once installed, is theirs: a second install keeps it.
        #expect(writeText("# edited\n", to: "\(staged)/usr/etc/acme/suite.toml"))
        let second = try install(manifest, into: staged, in: directory)
        #expect(second.status == 0, "\(second.standardOutput)\(second.standardError)")
        #expect(readFile("\(staged)/usr/etc/acme/suite.toml") == "# edited\n")
        #expect(second.standardOutput.contains("kept \(staged)/usr/etc/acme/suite.toml"), "\(second.standardOutput)")
    }
}
