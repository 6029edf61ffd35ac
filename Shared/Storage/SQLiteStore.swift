#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import GRDB
import GRDBSQLite
import VerticalsObservability
import VerticalsServiceKit

/// Opens a vertical's own SQLite store: WAL mode, versioned migrations run at start-up,
/// and the durability the vertical asks for.
///
/// ```swift
/// let database = try SQLiteStore.open(directory: runtime.stateDirectory, migrator: Migrations.all)
/// ```
///
/// GRDB's async accessors (`try await database.write { db in … }`) run SQLite on GRDB's own
/// serial queues, off the event loop, and resume the caller on its executor afterwards.
public enum SQLiteStore {
    /// How hard a commit presses the data to disk.
    public enum Durability: String, Sendable {
        /// `synchronous=FULL`: a commit is on disk when it returns (≈250 µs here). For
        /// anything acknowledged to a client, such as a booking.
        case full = "FULL"
        /// `synchronous=NORMAL`: survives a process crash, may lose the last commits on power loss (≈14 µs).
        case normal = "NORMAL"
    }

    /// True while a daemon's `--check` builds its World (ServiceKit's `makeWorld` sets it):
    /// ``open(directory:fileName:owner:migrator:durability:)`` then checks a store that exists and
    /// never creates one (nor its folder); it throws a ``StoreError`` of code `missing` instead.
    @TaskLocal public static var checking = false

    /// The QoS of GRDB's queues: `.default`, not GRDB's `.userInitiated`. On Linux libdispatch
    /// renices each worker thread to its queue's QoS, and user-initiated is nice -2: below 0 it
    /// needs `RLIMIT_NICE` (or `CAP_SYS_NICE`), so where systemd cannot raise that limit
    /// (`LimitNICE=` is clamped to the hard limit it inherits, 0 in a container without
    /// `CAP_SYS_RESOURCE`) every store's first query logged "Failed to set thread priority for
    /// worker thread … errno=13". Nice 0 needs nothing, and a vertical's threads are all alike.
    static let queueQoS = DispatchQoS.default

    /// Opens (creating if needed) `directory/fileName` and migrates it to the latest version.
    /// Before anything is written to it, a store is refused with a ``StoreError`` whose
    /// ``StoreError/restartCannotHelp`` is true when it belongs to another vertical (its
    /// application_id, see ``StoreOwner``; `owner` defaults to the vertical `fileName` is named
    /// for), when a newer build has migrated it (it lists migrations this build does not know),
    /// or when it is no SQLite store at all. A store without an owner (an older build's) is stamped
    /// with `owner`'s id.
    ///
    /// One process serves a store at a time: the store is open only with an exclusive lock on
    /// `directory/fileName.lock` (see `StoreLock` for the kind and why), held until the pool's
    /// writer closes (`DatabasePool/close()`, or the last reference to the pool goes) or the
    /// process dies. A store another pool holds, in this process or another, is refused at once,
    /// before SQLite opens it, with a ``StoreError`` of code `held` whose detail `pid` and
    /// message name the holder's pid and program; under ``handOver`` (an upgrade's new process)
    /// it is waited for instead, and a store about to be migrated is backed up first.
    public static func open(
        directory: String, fileName: String = "store.sqlite", owner: StoreOwner? = nil, migrator: DatabaseMigrator,
        durability: Durability = .full
    ) throws -> DatabasePool {
        let path = "\(directory)/\(fileName)"
        let owner = owner ?? StoreOwner(fileName: fileName)
        if checking, access(path, F_OK) != 0 {
            throw StoreError(.missing, "there is no store at \(path) yet")
        }
        try makeDirectory(directory)
        var configuration = Configuration()
        let replication = SQLiteStore.replication
        configuration.busyMode = .timeout(Double(replication.busyTimeout.components.seconds))
        configuration.qos = SQLiteStore.queueQoS
        configuration.prepareDatabase { db in
            if replication != .none {
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(replication.walCeilingPages)")
            }
            try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // A statement inside a savepoint (GroupCommit runs each write in one) may need a
            // statement journal: keep it in memory, not a file created and unlinked in /var/tmp.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        // SQLite's own heap (its page caches, at most `cache_size` a connection, and statements)
        // grows with what is stored, within that bound: counted apart from what requests leave.
        BoundedCacheMemory.count("sqlite") { Int(clamping: sqlite3_memory_used()) }
        let lock = try StoreLock.acquire("\(path).lock", for: path, handOver: checking ? nil : handOver)
        try createOwnerOnly(path)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw StoreError.unreadable(path, error)
        }
        do {
            // GRDB turns WAL on for the pool's writer after `prepareDatabase`, and sets
            // synchronous=NORMAL as it does: say it again on the writer (one connection, kept for
            // the pool's life), or a commit acknowledged to a client could be lost on power loss.
            try pool.writeWithoutTransaction { db in
                try lock.bind(to: db)
                try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue)")
                try owner.check(db, path: path, candidates: { siblingOwners(of: directory) })
            }
            try refuseNewerSchema(pool, migrator: migrator, path: path)
            try pool.writeWithoutTransaction { db in try owner.adopt(db) }
            if !checking { try backUpBeforeMigrating(pool, migrator: migrator, path: path) }
            try migrator.migrate(pool)
        } catch {
            try? pool.close() // releases the lock now, not whenever the pool is freed
            throw StoreError.unreadable(path, error)
        }
        return pool
    }

    /// An in-memory store with the same migrations, for tests.
    public static func inMemory(migrator: DatabaseMigrator) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return queue
    }

    /// Throws when `database` carries migrations `migrator` does not know: a newer build wrote it,
    /// and this one would misread it (and GRDB would refuse to migrate it anyway, less clearly).
    static func refuseNewerSchema(_ database: any DatabaseReader, migrator: DatabaseMigrator, path: String) throws {
        let applied = try database.read { db in try migrator.appliedIdentifiers(db) }
        let unknown = applied.subtracting(migrator.migrations).sorted()
        guard unknown.isEmpty else {
            throw StoreError(
                .newerSchema,
                "the store \(path) has a newer schema than this build knows (migrations "
                    + unknown.joined(separator: ", ") + " are not among " + migrator.migrations.joined(separator: ", ")
                    + "), or is another vertical's store from an older build: run the newer build, "
                    + "or restore a backup of this vertical made by this one")
        }
    }

    /// The verticals whose state directories sit beside `directory` (`<run>/state/<name>`,
    /// `/var/lib/verticals/<name>`): only to name the owner of a foreign store in a message.
    static func siblingOwners(of directory: String) -> [String] {
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return [] }
        let parent = trimmed[..<slash].isEmpty ? "/" : String(trimmed[..<slash])
        guard let folder = opendir(parent) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }

    /// Creates the empty store file `path` owner-only (0600) whatever the umask, unless it exists;
    /// SQLite gives its `-wal` and `-shm` the store's own mode when it creates them.
    static func createOwnerOnly(_ path: String) throws {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return }
            throw StoreError.system("cannot create the store \(path)")
        }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else { throw StoreError.system("cannot make the store \(path) owner-only") }
    }

    private static func makeDirectory(_ path: String) throws {
        if let failed = FolderPath.make(path, mode: 0o750) {
            throw StoreError(.system, "cannot create the state directory \(failed.folder): \(failed.reason)")
        }
    }
}
