/// Where a vertical's store is copied off the host, continuously, by Litestream (the manifest's
/// `replica`): a folder on another disk, an SFTP account, or an S3-compatible bucket.
///
/// ```toml
/// [defaults]
/// replica = { type = "sftp", host = "backup.example.net", path = "/replicas",
///             key_file = "/etc/verticals/replica/{name}.key", host_key = "ssh-ed25519 AAAA…" }
/// ```
///
/// `path` names a folder of folders: each vertical's store goes to `path/NAME`, so one line in
/// `[defaults]` replicates every store apart. `{name}` in a credential's path is the service's
/// name, so each vertical reads only its own (``Manifest/replicaProblems()``).
public struct Replica: Sendable, Equatable {
    /// Where the copies go.
    public var target: ReplicaTarget
    /// How often Litestream ships what the store committed since its last sync (its `sync-interval`):
    /// at most this much of acknowledged work is lost with the host.
    public var syncInterval: Duration
    /// How long the replica keeps history (Litestream's `snapshot.retention`): the earliest point a
    /// store can be restored to.
    public var retention: Duration

    /// The default sync interval: one second, Litestream's own.
    public static let defaultSyncInterval = Duration.seconds(1)
    /// The default retention: a day, Litestream's own.
    public static let defaultRetention = Duration.seconds(24 * 3600)

    /// A replica to `target`, with the default interval and retention unless given.
    public init(
        target: ReplicaTarget, syncInterval: Duration = Replica.defaultSyncInterval,
        retention: Duration = Replica.defaultRetention
    ) {
        self.target = target
        self.syncInterval = syncInterval
        self.retention = retention
    }

    /// The replica of service `name`: its folder below the target's `path`, and `{name}` in a
    /// credential's path replaced by `name`.
    public func forService(_ name: String) -> Replica {
        var replica = self
        switch target {
        case .folder(let path):
            replica.target = .folder(path: Self.joined(path, name))
        case .sftp(var sftp):
            sftp.path = Self.joined(sftp.path, name)
            sftp.keyFile = Self.expanding(sftp.keyFile, name: name)
            sftp.user = Self.expanding(sftp.user, name: name)
            replica.target = .sftp(sftp)
        case .s3(var s3):
            s3.path = s3.path.isEmpty ? name : Self.joined(s3.path, name)
            s3.credentialsFile = Self.expanding(s3.credentialsFile, name: name)
            replica.target = .s3(s3)
        }
        return replica
    }

    /// The credential file Litestream reads for this replica, when it needs one.
    public var credentialFile: String? {
        switch target {
        case .folder: nil
        case .sftp(let sftp): sftp.keyFile
        case .s3(let s3): s3.credentialsFile
        }
    }

    /// The placeholder a credential's path (and an SFTP user) may hold for the service's name.
    public static let namePlaceholder = "{name}"

    static func expanding(_ text: String, name: String) -> String {
        // Swift 6's `replacing(_:with:)` on Substring, without Foundation.
        text.replacing(namePlaceholder, with: name)
    }

    private static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

/// The kind of place a ``Replica`` writes to, with what Litestream needs to reach it.
public enum ReplicaTarget: Sendable, Equatable {
    /// A folder on this host, meant on another disk (Litestream's `file` replica).
    case folder(path: String)
    /// An account on an SFTP server.
    case sftp(SFTPReplica)
    /// A bucket of an S3-compatible object store.
    case s3(S3Replica)

    /// The `type` a manifest writes for it.
    public var typeName: String {
        switch self {
        case .folder: "folder"
        case .sftp: "sftp"
        case .s3: "s3"
        }
    }
}

/// An SFTP replica: the server, its host key (Litestream checks the server against it), the account
/// and the private key that logs in.
public struct SFTPReplica: Sendable, Equatable {
    /// The server's name or address.
    public var host: String
    /// Its SSH port.
    public var port: Int
    /// The account: by default the service's own user, so each vertical has an account of its own.
    public var user: String
    /// The folder as the account sees it (inside its `ChrootDirectory`).
    public var path: String
    /// The private key that logs in: readable by the service's user alone.
    public var keyFile: String
    /// The server's public host key as `known_hosts` writes it: `ssh-ed25519 AAAA…`.
    public var hostKey: String

    /// An SFTP replica.
    public init(host: String, port: Int = 22, user: String, path: String, keyFile: String, hostKey: String) {
        self.host = host
        self.port = port
        self.user = user
        self.path = path
        self.keyFile = keyFile
        self.hostKey = hostKey
    }
}

/// An S3-compatible replica: the bucket, a folder in it, the endpoint of a store other than AWS,
/// and a credentials file in the AWS shared-credentials form.
public struct S3Replica: Sendable, Equatable {
    /// The bucket.
    public var bucket: String
    /// The folder in the bucket (empty: its root).
    public var path: String
    /// The endpoint URL of an S3-compatible store (MinIO, Backblaze, …); nil: AWS.
    public var endpoint: String?
    /// The region; nil: the store's default.
    public var region: String?
    /// The credentials file (`[default]`, `aws_access_key_id`, `aws_secret_access_key`),
    /// readable by the service's user alone; Litestream is pointed at it, never given the keys.
    public var credentialsFile: String

    /// An S3 replica.
    public init(
        bucket: String, path: String = "", endpoint: String? = nil, region: String? = nil, credentialsFile: String
    ) {
        self.bucket = bucket
        self.path = path
        self.endpoint = endpoint
        self.region = region
        self.credentialsFile = credentialsFile
    }
}
