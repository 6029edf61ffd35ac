import Glibc
import Testing
import VerticalsCertificates
import VerticalsContract
import VerticalsDeploy
import VerticalsManifest
import VerticalsScaffold
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSupervisorCommands
import VerticalsTesting
import VerticalsSharedTesting

/// Trust comes from the manifest: which vertical receives each kind of secret is its
/// `receives`, one vertical per kind, and a role's name (`operator`, `supervisor`, the run
/// folder's and the certificates' own names) is no vertical's name, for `check`, `certs` and `new` alike.
@Suite(.blocking) struct ManifestTrustTests {
    @Test func receives_namesTheRecipientOfEachKind() {
        let manifest = ManifestFixture.valid(
            """
            [services.accounts]
            executable = "true"
            receives = [\(SecretKind.allCases.map { "\"\($0)\"" }.joined(separator: ", "))]
            [services.catalog]
            executable = "true"
            """)
        #expect(
            manifest.secretRecipients == Dictionary(uniqueKeysWithValues: SecretKind.allCases.map { ($0, "accounts") }))
        #expect(manifest["catalog"]?.receives == [])
    }

    @Test func twoServicesClaimingOneKind_areRefused_namingBoth() {
        let problems = ManifestFixture.problems(
            """
            [services.accounts]
            executable = "true"
            receives = ["sessions"]
            [services.evil]
            executable = "true"
            receives = ["sessions", "\(SecretKind.password)"]
            """)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.contains { $0.code == .duplicate && $0.detail("services") == "accounts,evil" }, "\(problems)")
    }

    @Test(arguments: [
        ("[defaults]\nreceives = [\"sessions\"]\n[services.a]\nexecutable = \"true\"\n", "belongs to one service"),
        ("[services.a]\nexecutable = \"true\"\nreceives = [\"session\"]\n", "did you mean \"sessions\""),
        ("[services.a]\nexecutable = \"true\"\nreceives = [\"roles\", \"roles\"]\n", "listed twice"),
        ("[services.a]\nexecutable = \"true\"\nreceives = \"roles\"\n", "an array of strings"),
    ])
    func aBadReceives_isRefused(text: String, says: String) {
        let problems = ManifestFixture.problems(text)
        #expect(problems.contains { "\($0)".contains(says) }, "\(problems)")
    }

    @Test(arguments: ServiceName.roles.map(\.name))
    func aRolesName_isRefusedAsAServiceName_byCheck(name: String) {
        let problems = ManifestFixture.problems("[services.\(name)]\nexecutable = \"true\"\n")
        #expect(problems.contains { $0.code == .invalidName && $0.service == name }, "\(name): \(problems)")
    }

    @Test func certs_refusesAVerticalNamedOperator_andWritesNothing() throws {
        let directory = TemporaryDirectory()
        let manifest = directory.file("suite.toml")
        writeText("[services.operator]\nexecutable = \"vt-testd\"\n", to: manifest)

        let result = try runCommand(
            "svc-supervisor", ["certs", directory.file("certs"), "--manifest", manifest], in: directory)

        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardOutput.contains("names a role, not a vertical"), "\(result.standardOutput)")
        #expect(
            access(directory.file("certs/operator/tls.key"), F_OK) != 0, "the operator's key was minted for a vertical")
    }

    @Test func mint_refusesAServiceNamedOperator() {
        #expect(throws: CertificatesError.self) {
            _ = try SuiteCertificates.mint(
                services: ["accounts", SuiteCertificates.operatorName], namespace: "verticals", days: 1)
        }
    }

    @Test(arguments: ["operator", "sockets", "logs", "notify"])
    func new_refusesARolesName(name: String) {
        #expect {
            _ = try VerticalName(name)
        } throws: { error in
            "\(error)".contains("names a role, not a vertical")
        }
    }

    @Test func exportSystemd_writesTheRecipientsBesideTheUnits_asTheCLIReadsThem() throws {
        let manifest = ManifestFixture.valid(
            """
            [services.accounts]
            executable = "true"
            receives = ["sessions", "\(SecretKind.password)"]
            [services.admin-desk]
            executable = "true"
            receives = ["first_admin"]
            """)
        let files = try SystemdExport.files(for: manifest)
        let text = try #require(files[SecretRecipientsFile.name])
        #expect(
            SecretRecipientsFile.parse(text) == [
                .sessions: "accounts", .password: "accounts", .firstAdmin: "admin-desk",
            ])
    }

    @Test(arguments: ["sessions accounts\n", "sessions = accounts\nsessions = evil\n", "tokens = evil\n"])
    func aSecretsFileThatIsNotWhollyUnderstood_isNotBelieved(text: String) {
        #expect(SecretRecipientsFile.parse(text) == nil)
    }
}

/// Where the CLI reads which vertical receives a secret when no supervisor answers: only a file
/// nobody else may have written, and never a guess.
@Suite(.blocking) struct SecretRecipientsSourceTests {
    @Test func withNoSupervisorNoFileAndNoSystemd_theCLIRefuses_andSaysWhy() {
        #expect {
            _ = try SecretRecipients.find(supervisor: nil, environment: [:], systemd: false)
        } throws: { error in
            let text = "\(error)"
            return text.contains("does not know which vertical") && text.contains("VERTICALS_SECRETS_FILE is not set")
        }
    }

    @Test func theSupervisorsWord_isTaken_beforeAnyFile() throws {
        let found = try SecretRecipients.find(
            supervisor: [.sessions: "accounts"], environment: ["VERTICALS_SECRETS_FILE": "/nonexistent"], systemd: false
        )
        #expect(found.recipients == [.sessions: "accounts"])
        #expect(try found.service(for: .issuesSession) == "accounts")
        #expect(throws: CLIError.self) { try found.service(for: .changesPassword) }
    }

    @Test func aSecretsFileOthersMayWrite_isNotBelieved() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o700)
        let path = directory.file("secrets.conf")
        writeText("sessions = evil\n", to: path)
        chmod(path, 0o666)

        #expect {
            _ = try SecretRecipients.find(
                supervisor: nil, environment: ["VERTICALS_SECRETS_FILE": path], systemd: false)
        } throws: { error in
            "\(error)".contains("is not believed")
        }

        chmod(path, 0o644)
        let found = try SecretRecipients.find(
            supervisor: nil, environment: ["VERTICALS_SECRETS_FILE": path], systemd: false)
        #expect(found.recipients == [.sessions: "evil"])
    }

    /// A member of the operator group may not ask the supervisor (its control socket is root's):
    /// it reads the file the supervisor wrote in its run folder, believed only when its owner
    /// alone could have written it.
    @Test func theRunFoldersFile_isRead_whenNoSupervisorAnswers_andPassedOverWhenOthersMayWrite() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o700)
        let run = RunDirectory(directory.file("run"))
        mkdir(run.path, 0o755)
        writeText("password = accounts\nsessions = accounts\n", to: run.secretRecipientsFile)
        chmod(run.secretRecipientsFile, 0o644)
        let found = try SecretRecipients.find(
            supervisor: nil, runFile: run.secretRecipientsFile, environment: [:], systemd: false)
        #expect(found.recipients == [.password: "accounts", .sessions: "accounts"])
        #expect(found.source == run.secretRecipientsFile)

        chmod(run.secretRecipientsFile, 0o666)
        #expect {
            _ = try SecretRecipients.find(
                supervisor: nil, runFile: run.secretRecipientsFile, environment: [:], systemd: false)
        } throws: { error in
            "\(error)".contains("\(run.secretRecipientsFile) is not believed")
        }
    }
}
