import VerticalsWire

/// What Litestream 0.5 is given to replicate one store: its YAML configuration, the environment it
/// runs with, and its command line, made from the store's path and the service's ``Replica``
/// (``Replica/forService(_:)``) and from nothing else. Never a shell string: the supervisor and
/// the exports write ``yaml`` to a file and run ``replicateArguments(configPath:)`` as an argv.
///
/// ```swift
/// let litestream = LitestreamConfiguration(storePath: "/var/lib/verticals/ledger/ledger.sqlite", replica: replica)
/// try write(litestream.yaml, to: configPath)
/// spawn("litestream", litestream.arguments(configPath: configPath), environment: litestream.environment)
/// ```
///
/// Every text is written as a YAML double-quoted scalar, escaped, and Litestream is told not to
/// expand `$VARIABLES` in it (`-no-expand-env`), so no value from the manifest becomes anything
/// but itself. Credentials never enter the file: an SFTP key is a path Litestream reads, S3 keys
/// come from the credentials file named in ``environment``.
public struct LitestreamConfiguration: Sendable, Equatable {
    /// The configuration file's text.
    public let yaml: String
    /// The variables Litestream needs beside the configuration (S3's credentials file), to add to
    /// its allow-listed environment.
    public let environment: [String: String]

    /// How long Litestream waits on a store another connection holds (its `busy-timeout`): shorter
    /// than the vertical's own when replicated (`SQLiteStore.Replication`, 10 s), so when both want
    /// the write lock, Litestream is the one that gives up and tries at its next sync, never the
    /// vertical.
    public static let busyTimeout = Duration.seconds(1)

    /// The configuration that replicates the store at `storePath` (absolute) to `replica`.
    public init(storePath: String, replica: Replica) {
        var lines = [
            "# Litestream's configuration for \(Self.quoted(storePath)), written from the manifest's replica: do not edit.",
            "logging:",
            "  level: info",
            "  type: text",
            "snapshot:",
            "  interval: \(Self.goDuration(min(replica.retention, .seconds(24 * 3600))))",
            "  retention: \(Self.goDuration(replica.retention))",
            "dbs:",
            "  - path: \(Self.quoted(storePath))",
            "    busy-timeout: \(Self.goDuration(Self.busyTimeout))",
            "    replica:",
        ]
        var environment: [String: String] = [:]
        let replicaLines: [(String, String)]
        switch replica.target {
        case .folder(let path):
            replicaLines = [("type", "file"), ("path", Self.quoted(path))]
        case .sftp(let sftp):
            let host = sftp.host.contains(":") ? "[\(sftp.host)]:\(sftp.port)" : "\(sftp.host):\(sftp.port)"
            replicaLines = [
                ("type", "sftp"), ("host", Self.quoted(host)), ("user", Self.quoted(sftp.user)),
                ("path", Self.quoted(sftp.path)), ("key-path", Self.quoted(sftp.keyFile)),
                ("host-key", Self.quoted(sftp.hostKey)),
            ]
        case .s3(let s3):
            var entries = [("type", "s3"), ("bucket", Self.quoted(s3.bucket)), ("path", Self.quoted(s3.path))]
            if let endpoint = s3.endpoint {
                entries += [("endpoint", Self.quoted(endpoint)), ("force-path-style", "true")]
            }
            if let region = s3.region { entries.append(("region", Self.quoted(region))) }
            replicaLines = entries
            environment = [
                "AWS_SHARED_CREDENTIALS_FILE": s3.credentialsFile, "AWS_CONFIG_FILE": "/dev/null",
                "AWS_EC2_METADATA_DISABLED": "true",
            ]
        }
        lines += replicaLines.map { "      \($0.0): \($0.1)" }
        lines.append("      sync-interval: \(Self.goDuration(replica.syncInterval))")
        yaml = lines.joined(separator: "\n") + "\n"
        self.environment = environment
    }

    /// `litestream replicate` with the configuration at `configPath`.
    public static func replicateArguments(configPath: String) -> [String] {
        ["replicate", "-config", configPath, "-no-expand-env"]
    }

    /// `litestream restore` of the store into `output`, at the latest point or at `timestamp`
    /// (RFC 3339, e.g. `2026-05-01T12:00:00Z`); with `ifReplicaExists`, a replica that holds no
    /// copy yet is a success that writes nothing; with `ifOutputMissing`, so is a file already
    /// at `output`, which Litestream then leaves as it is without reaching the replica.
    public static func restoreArguments(
        configPath: String, storePath: String, output: String, timestamp: String? = nil, ifReplicaExists: Bool = false,
        ifOutputMissing: Bool = false
    ) -> [String] {
        ["restore", "-config", configPath, "-no-expand-env", "-o", output]
            + (timestamp.map { ["-timestamp", $0] } ?? []) + (ifOutputMissing ? ["-if-db-not-exists"] : [])
            + (ifReplicaExists ? ["-if-replica-exists"] : []) + [storePath]
    }

    /// How long a `litestream restore` may take before it counts as failed: a whole store and its
    /// WAL fetched from a remote replica.
    public static let restoreTimeLimit = Duration.seconds(3_600)

    /// `litestream reset`: forgets Litestream's local state of the store, after a new file was
    /// renamed over it (a restore, an upgrade's rollback), so the next `replicate` starts a new
    /// snapshot instead of refusing a store it does not recognise.
    public static func resetArguments(configPath: String, storePath: String) -> [String] {
        ["reset", "-config", configPath, "-no-expand-env", storePath]
    }

    /// `text` as a YAML double-quoted scalar: `\`, `"` and line breaks escaped, every other control
    /// character (and the C1 range and Unicode's line separators, which YAML reads as breaks) as `\uXXXX`.
    package static func quoted(_ text: String) -> String {
        doubleQuoted(text) { scalar in
            let value = scalar.value
            guard value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value) || value == 0x2028 || value == 0x2029
            else { return nil }
            let hex = String(value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `duration` as Go's `time.ParseDuration` reads it, whole: `24h`, `90m`, `5s`, `250ms`.
    package static func goDuration(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }
}
