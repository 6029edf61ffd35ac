#if canImport(Glibc)
import Glibc
#endif
import GRDB
import VerticalsContract

extension SQLiteStore {
    /// How a new process of a vertical takes its store over from the old one during an upgrade
    /// (`svc-supervisor upgrade`): it waits for the store's lock instead of refusing it, and it
    /// backs the store up before migrating it.
    ///
    /// The supervisor starts the new process with ``environmentKey`` set. The process builds
    /// everything that needs no store first; then ``SQLiteStore/open(directory:fileName:owner:migrator:durability:)``,
    /// under ``SQLiteStore/handOver``, finds the lock held by the old process, calls ``waiting``
    /// (the daemon says ``waitingKey``=1 to the supervisor, which then stops the old one) and
    /// waits on the lock itself: `flock(2)` returns the moment the old process is gone, however
    /// it goes, with nothing to poll and no second message that could come early. When this build
    /// would migrate an existing store, it copies it first (one file beside it,
    /// `<name>.before-upgrade-<UTC time>.sqlite`) and calls ``backedUp`` (the daemon says
    /// ``backupKey``=PATH), so a rollback to the previous build can put it back.
    public struct HandOver: Sendable {
        /// The environment variable that makes a daemon's store wait for the lock (value `1`).
        public static let environmentKey = DaemonSettings.storeHandover.name
        /// The `sd_notify` assignment that says the process prepared and waits for the store
        /// (custom names start with `X_`, as sd_notify(3) asks).
        public static let waitingKey = "X_VERTICALS_STORE_WAIT"
        /// The `sd_notify` assignment naming the store backup taken before a migration.
        public static let backupKey = "X_VERTICALS_STORE_BACKUP"

        /// Called once, when the store's lock is held by another process and the wait begins;
        /// its argument is the holder's pid when it wrote one.
        public var waiting: @Sendable (_ holder: Int32?) -> Void
        /// Called with the path of the backup made before migrating.
        public var backedUp: @Sendable (_ path: String) -> Void

        public init(
            waiting: @escaping @Sendable (_ holder: Int32?) -> Void,
            backedUp: @escaping @Sendable (_ path: String) -> Void
        ) {
            self.waiting = waiting
            self.backedUp = backedUp
        }
    }

    /// Set while a daemon started for an upgrade opens its store (`WorldParts.live` sets it when
    /// ``HandOver/environmentKey`` is `1`): see ``HandOver``.
    @TaskLocal public static var handOver: HandOver?

    /// Before migrating under ``handOver``: when `migrator` has migrations the store lacks and the
    /// store is not new, copies it beside `path` and says where. Throws when the copy fails (the
    /// store is not migrated without one).
    static func backUpBeforeMigrating(_ pool: DatabasePool, migrator: DatabaseMigrator, path: String) throws {
        guard let handOver else { return }
        let migrates = try pool.read { db in
            try !migrator.appliedIdentifiers(db).isEmpty && !migrator.hasCompletedMigrations(db)
        }
        guard migrates else { return }
        let stem = path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) : path
        let backup = BackupFile.unused("\(stem).before-upgrade-\(BackupFile.timestamp()).sqlite")
        try SQLiteStore.backup(pool, to: backup)
        handOver.backedUp(backup)
    }
}
