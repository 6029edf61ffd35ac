import Testing
import VerticalsManifest

/// Litestream's configuration is a pure function of the store's path and the replica: exact YAML,
/// every text quoted, credentials by path only.
struct LitestreamConfigurationTests {
    @Test func folderReplica_writesTheWholeConfiguration() {
        let replica = Replica(target: .folder(path: "/mnt/replica"), retention: .seconds(72 * 3600))
            .forService("ledger")
        let configuration = LitestreamConfiguration(
            storePath: "/var/lib/verticals/ledger/ledger.sqlite", replica: replica)
        #expect(
            configuration.yaml == """
                # Litestream's configuration for "/var/lib/verticals/ledger/ledger.sqlite", written from the manifest's replica: do not edit.
                logging:
                  level: info
                  type: text
                snapshot:
                  interval: 24h
                  retention: 72h
                dbs:
                  - path: "/var/lib/verticals/ledger/ledger.sqlite"
                    busy-timeout: 1s
                    replica:
                      type: file
                      path: "/mnt/replica/ledger"
                      sync-interval: 1s

                """)
        #expect(configuration.environment.isEmpty)
    }

    @Test func sftpReplica_checksTheHostKey_andReadsTheKeyByPath() {
        let replica = Replica(
            target: .sftp(
                SFTPReplica(
                    host: "fd00::2", port: 2222, user: "verticals-ledger", path: "/r/ledger",
                    keyFile: "/etc/r/ledger.key",
                    hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA")), syncInterval: .milliseconds(250))
        let yaml = LitestreamConfiguration(storePath: "/s/ledger.sqlite", replica: replica).yaml
        #expect(yaml.contains("      type: sftp\n"))
        #expect(yaml.contains("      host: \"[fd00::2]:2222\"\n"))
        #expect(yaml.contains("      key-path: \"/etc/r/ledger.key\"\n"))
        #expect(yaml.contains("      host-key: \"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA\"\n"))
        #expect(yaml.contains("      sync-interval: 250ms\n"))
    }

    @Test func s3Replica_takesItsKeysFromTheCredentialsFile_neverFromTheYAML() {
        let replica = Replica(
            target: .s3(
                S3Replica(
                    bucket: "b", path: "suite/ledger", endpoint: "https://s3.example.net:9000",
                    credentialsFile: "/etc/r/ledger.s3")))
        let configuration = LitestreamConfiguration(storePath: "/s/ledger.sqlite", replica: replica)
        #expect(configuration.yaml.contains("      force-path-style: true\n"))
        #expect(!configuration.yaml.contains("access-key"))
        #expect(configuration.environment["AWS_SHARED_CREDENTIALS_FILE"] == "/etc/r/ledger.s3")
    }

    @Test(arguments: [
        ("/a\"b", #""/a\"b""#), ("/a\\b", #""/a\\b""#), ("/a\nb: c", #""/a\nb: c""#), ("/a\u{1}b", #""/a\u0001b""#),
        ("/a$HOME", #""/a$HOME""#),
    ])
    func hostileText_staysOneQuotedScalar(text: String, expected: String) {
        #expect(LitestreamConfiguration.quoted(text) == expected)
        let yaml = LitestreamConfiguration(storePath: text, replica: Replica(target: .folder(path: "/r"))).yaml
        #expect(yaml.split(separator: "\n").count == 14, "a value broke out of its line:\n\(yaml)")
    }

    @Test func commands_neverExpandVariables() {
        #expect(
            LitestreamConfiguration.replicateArguments(configPath: "/c.yml") == [
                "replicate", "-config", "/c.yml", "-no-expand-env",
            ])
        #expect(
            LitestreamConfiguration.restoreArguments(
                configPath: "/c.yml", storePath: "/s.sqlite", output: "/o.sqlite", timestamp: "2026-05-01T12:00:00Z")
                == [
                    "restore", "-config", "/c.yml", "-no-expand-env", "-o", "/o.sqlite", "-timestamp",
                    "2026-05-01T12:00:00Z", "/s.sqlite",
                ])
        #expect(
            LitestreamConfiguration.resetArguments(configPath: "/c.yml", storePath: "/s.sqlite").contains(
                "-no-expand-env"))
    }

    @Test(arguments: [
        (Duration.seconds(86_400), "24h"), (.seconds(5400), "90m"), (.seconds(5), "5s"),
        (.milliseconds(1500), "1500ms"),
    ])
    func durations_areWrittenAsGoReadsThem(duration: Duration, text: String) {
        #expect(LitestreamConfiguration.goDuration(duration) == text)
    }
}
