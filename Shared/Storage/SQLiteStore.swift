@_exported import GRDB

#if canImport(Glibc)
import Glibc
#endif

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

    /// Opens (creating if needed) `directory/fileName` and migrates it to the latest version.
    public static func open(
        directory: String, fileName: String = "store.sqlite", migrator: DatabaseMigrator,
        durability: Durability = .full
    ) throws -> DatabasePool {
        try makeDirectory(directory)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let pool = try DatabasePool(path: "\(directory)/\(fileName)", configuration: configuration)
        try migrator.migrate(pool)
        return pool
    }

    /// An in-memory store with the same migrations, for tests.
    public static func inMemory(migrator: DatabaseMigrator) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return queue
    }

    private static func makeDirectory(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o750) != 0 && errno != EEXIST {
                throw StoreError(message: "cannot create the state directory \(current): \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// A store that could not be opened.
public struct StoreError: Error, CustomStringConvertible {
    /// What went wrong and where.
    public let message: String
    public var description: String { message }
}
