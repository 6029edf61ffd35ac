import GRDB
import VerticalsServiceKit
import VerticalsWire

/// A vertical's SQLite store as the runtime sees it (``VerticalStore``): `daemon.backup` copies
/// it with SQLite's online backup, and its failures reach callers typed (``StoreFailures``).
///
/// A daemon's `main.swift` hands it over with `ServedVertical(router, store: world.database)`.
public struct SQLiteVerticalStore: VerticalStore {
    /// The vertical's database.
    public let database: any DatabaseReader

    /// The store `database` is.
    public init(_ database: any DatabaseReader) {
        self.database = database
    }

    /// A consistent copy at `path` (``SQLiteStore/backup(_:to:)``); a path that exists or whose
    /// folder is missing is `conflict`, naming the field.
    public func backup(to path: String) throws -> Int {
        do {
            return try SQLiteStore.backup(database, to: path)
        } catch let error as StoreError {
            throw ServiceError(.conflict, error.message, details: [ErrorDetail("field", "path")])
        }
    }

    public func serviceError(for error: any Error, operation: String) -> ServiceError? {
        StoreFailures.serviceError(for: error, operation: operation)
    }
}

extension ServedVertical {
    /// Serves `router` with `database` as the vertical's own store.
    public init(_ router: Router, store database: any DatabaseReader) {
        self.init(router, store: SQLiteVerticalStore(database))
    }
}
