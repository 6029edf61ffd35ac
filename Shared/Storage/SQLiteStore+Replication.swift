import GRDB
import VerticalsContract

extension SQLiteStore {
    /// How a store that Litestream replicates is opened (the manifest's `replica`; the supervisor
    /// and the exports set ``environmentKey``, `WorldParts.live` sets ``replication``).
    ///
    /// Litestream is a second writer of the store: it keeps a read transaction open, and takes the
    /// write lock while it seals the WAL before a checkpoint and while it snapshots the store after
    /// one, for as long as copying the store on this disk takes. So, with a replica:
    /// - **Litestream checkpoints.** Its passive checkpoints run at about 1,000 pages and every
    ///   minute, each one copied before it; the daemon's own automatic checkpoint moves up to
    ///   ``walCeilingPages``, which a running Litestream never lets the WAL reach: it fires only
    ///   while Litestream is down or backing off, and bounds the WAL until it is back (Litestream
    ///   then sees the restarted WAL and takes a new snapshot: nothing is lost, the copy costs more).
    /// - **The daemon waits longer on a lock** (``busyTimeout`` instead of 5 s), so a snapshot
    ///   under Litestream's lock delays a write instead of failing it `unavailable`; Litestream
    ///   waits 1 s (its `busy-timeout`, `LitestreamConfiguration`) and gives up first.
    ///
    /// Without a replica nothing changes: SQLite's 1,000-page checkpoint and a 5 s busy timeout.
    public enum Replication: Sendable, Equatable {
        /// The store stays on its host.
        case none
        /// Litestream replicates it.
        case litestream

        /// The environment variable that says the store is replicated (value `litestream`).
        public static let environmentKey = DaemonSettings.storeReplica.name

        /// What `environment` says.
        public init(environment: [String: String]) {
            self = environment[Self.environmentKey] == "litestream" ? .litestream : .none
        }

        /// How long a connection waits on a lock another holds before the store is `unavailable`.
        public var busyTimeout: Duration { self == .litestream ? .seconds(10) : .seconds(5) }

        /// The WAL size in pages past which a commit checkpoints the store itself.
        public var walCeilingPages: Int { self == .litestream ? 10_000 : 1_000 }
    }

    /// The replication of the store ``open(directory:fileName:owner:migrator:durability:)`` opens:
    /// see ``Replication``.
    @TaskLocal public static var replication = Replication.none
}
