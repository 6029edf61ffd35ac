import Testing
import VerticalsManifest
import VerticalsSupervisor
import VerticalsSharedTesting

#if canImport(Glibc)
import Glibc
#endif

/// `replica`: where Litestream copies a vertical's store off the host. Each mistake is a problem
/// naming its key; each service gets a folder and a credential of its own.
@Suite struct ManifestReplicaTests {
    static let hostKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"

    @Test func folderReplica_inDefaults_givesEachStoreItsOwnFolder() throws {
        let manifest = ManifestFixture.valid(
            """
            [defaults]
            replica = { type = "folder", path = "/mnt/replica", sync_interval = "5s", retention = "72h" }
            [services.ledger]
            executable = "true"
            [services.gateway]
            executable = "true"
            store = false
            """)
        let replica = try #require(manifest["ledger"]?.replica)
        #expect(replica.syncInterval == .seconds(5))
        #expect(replica.retention == .seconds(72 * 3600))
        #expect(manifest.replicas.map(\.replica.target) == [.folder(path: "/mnt/replica/ledger")])
        #expect(manifest["gateway"]?.replica == nil, "an inherited replica passes by a service without a store")
    }

    @Test func sftpReplica_expandsTheNameInTheKeyFile_andDefaultsTheUserToTheServices() throws {
        let manifest = ManifestFixture.valid(
            """
            [defaults]
            replica = { type = "sftp", host = "backup.example.net", path = "/replicas", key_file = "/etc/r/{name}.key", host_key = "\(Self.hostKey) root@b" }
            [services.ledger]
            executable = "true"
            [services.audit]
            executable = "true"
            replica = { port = 2222 }
            """)
        let targets = manifest.replicas.map(\.replica.target)
        #expect(
            targets == [
                .sftp(
                    SFTPReplica(
                        host: "backup.example.net", user: "verticals-ledger", path: "/replicas/ledger",
                        keyFile: "/etc/r/ledger.key", hostKey: Self.hostKey)),
                .sftp(
                    SFTPReplica(
                        host: "backup.example.net", port: 2222, user: "verticals-audit", path: "/replicas/audit",
                        keyFile: "/etc/r/audit.key", hostKey: Self.hostKey)),
            ])
    }

    @Test func s3Replica_isParsed() throws {
        let manifest = ManifestFixture.valid(
            """
            [services.ledger]
            executable = "true"
            replica = { type = "s3", endpoint = "https://s3.example.net:9000", bucket = "b", path = "suite", credentials_file = "/etc/r/ledger.s3", region = "eu" }
            """)
        #expect(
            manifest.replicas.first?.replica.target
                == .s3(
                    S3Replica(
                        bucket: "b", path: "suite/ledger", endpoint: "https://s3.example.net:9000", region: "eu",
                        credentialsFile: "/etc/r/ledger.s3")))
    }

    @Test func replica_canBeTurnedOff_byOneService() {
        let manifest = ManifestFixture.valid(
            """
            [defaults]
            replica = { type = "folder", path = "/mnt/replica" }
            [services.ledger]
            executable = "true"
            replica = false
            """)
        #expect(manifest["ledger"]?.replica == nil)
    }

    @Test(arguments: [
        ("store = false\nreplica = { type = \"folder\", path = \"/r\" }", "replica"),
        ("replica = { path = \"/r\" }", "replica.type"),
        ("replica = { type = \"nfs\", path = \"/r\" }", "replica.type"),
        ("replica = { type = \"folder\", path = \"r\" }", "replica.path"),
        ("replica = { type = \"folder\", path = \"/r/../etc\" }", "replica.path"),
        ("replica = { type = \"folder\", path = \"/r\", bucket = \"b\" }", "replica.bucket"),
        ("replica = { type = \"folder\", path = \"/r\", colour = \"b\" }", "replica.colour"),
        ("replica = { type = \"folder\", path = \"/r\", sync_interval = 1 }", "replica.sync_interval"),
        (
            "replica = { type = \"folder\", path = \"/r\", retention = \"1s\", sync_interval = \"10s\" }",
            "replica.retention"
        ),
        ("replica = { type = \"sftp\", host = \"b\", path = \"/r\", key_file = \"/k\" }", "replica.host_key"),
        (
            "replica = { type = \"sftp\", host = \"b\", path = \"/r\", key_file = \"/k\", host_key = \"b\" }",
            "replica.host_key"
        ),
        ("replica = { type = \"sftp\", host = \"b\", path = \"/r\", host_key = \"\(hostKey)\" }", "replica.key_file"),
        (
            "replica = { type = \"sftp\", host = \"-oProxy=x\", path = \"/r\", key_file = \"/k\", host_key = \"\(hostKey)\" }",
            "replica.host"
        ),
        ("replica = { type = \"s3\", bucket = \"b\" }", "replica.credentials_file"),
        (
            "replica = { type = \"s3\", bucket = \"b\", credentials_file = \"/c\", endpoint = \"s3.example.net\" }",
            "replica.endpoint"
        ),
        ("replica = { type = \"folder\", path = \"/r\\nsecret: x\" }", "replica.path"),
        ("replica = \"/r\"", "replica"),
    ])
    func badReplica_isAProblemNamingTheKey(line: String, key: String) {
        let problems = ManifestFixture.problems("[services.ledger]\nexecutable = \"true\"\n\(line)\n")
        #expect(problems.only(service: "ledger", key: key) != nil, "\(problems)")
    }

    @Test func oneCredential_sharedByTwoServices_isAProblem() {
        let problems = ManifestFixture.problems(
            """
            [defaults]
            replica = { type = "sftp", host = "b", path = "/r", key_file = "/etc/r/shared.key", host_key = "\(Self.hostKey)" }
            [services.ledger]
            executable = "true"
            [services.audit]
            executable = "true"
            """)
        let problem = problems.only(service: "audit", key: "replica")
        #expect(problem?.code == .duplicate && problem?.detail("other") == "ledger", "\(String(describing: problem))")
    }

    @Test func folderReplica_overlappingAStoresFolder_isAProblemOfCheck() {
        let manifest = ManifestFixture.valid(
            """
            [defaults]
            replica = { type = "folder", path = "/var/lib/verticals" }
            [services.ledger]
            executable = "true"
            [services.audit]
            executable = "true"
            replica = { path = "/srv/run/state/ledger/copies" }
            """)
        let problems = ReplicaFiles.problems(in: manifest, runDirectory: "/srv/run")
        #expect(problems.contains { $0.service == "ledger" && $0.code == .conflict && $0.detail("other") == "ledger" })
        #expect(problems.contains { $0.service == "audit" && $0.code == .conflict && $0.detail("other") == "ledger" })
        #expect(problems.count == 2, "\(problems)")
    }

    @Test func credentialFile_readableByOthers_orMissing_isAProblem() throws {
        let folder = try #require(mkdtemp(strdup("/tmp/vt.XXXXXX")).map { String(cString: $0) })
        defer { _ = unlink("\(folder)/key"); _ = rmdir(folder) }
        #expect(ReplicaFiles.credentialProblem("\(folder)/key")?.contains("cannot read") == true)
        let fd = open("\(folder)/key", O_CREAT | O_WRONLY, 0o600)
        close(fd)
        _ = chmod("\(folder)/key", 0o600)
        #expect(ReplicaFiles.credentialProblem("\(folder)/key") == nil)
        _ = chmod("\(folder)/key", 0o644)
        #expect(ReplicaFiles.credentialProblem("\(folder)/key")?.contains("0644") == true)
        #expect(ReplicaFiles.credentialProblem(folder)?.contains("not a regular file") == true)
    }
}
