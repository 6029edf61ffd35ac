import GRDB
import VerticalsServiceKit
import VerticalsWire

/// A vertical's SQLite store as the runtime sees it (`VerticalStore`): `daemon.backup` copies
/// it with SQLite's online backup, and its failures reach callers typed (``serviceError(for:operation:)``).
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

    /// What a caller sees when a handler's store fails beneath it: a typed error it can act on
    /// instead of `internal`. A full disk (`SQLITE_FULL`, also what SQLite says at
    /// `max_page_count`) is `resourceExhausted`; a store another process holds locked past the busy
    /// timeout is `unavailable`; a file the daemon cannot write (`SQLITE_READONLY`,
    /// `SQLITE_CANTOPEN`) stays `internal` (nil here), since no retry helps.
    public func serviceError(for error: any Error, operation: String) -> ServiceError? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL:
            return ServiceError(
                .resourceExhausted, "\(operation) could not be stored: the disk is full; nothing was changed",
                retryable: true)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return ServiceError(.unavailable, "\(operation) found the store busy; try again", retryable: true)
        default:
            return nil
        }
    }
}

extension ServedVertical {
    /// Serves `router` with `database` as the vertical's own store.
    public init(_ router: Router, store database: any DatabaseReader) {
        self.init(router, store: SQLiteVerticalStore(database))
    }
}
