import GRDB
import IOInterface
import VerticalsContract
import VerticalsStorage
import VerticalsWire

/// Notifications in notifications' own SQLite store.
///
/// Deliveries share commits (``GroupCommit``): the sends that arrive while a commit is under way
/// go to disk together in the next one, each sender answered once the commit holding it returned.
package struct NotificationRepository: Sendable {
    private let database: any DatabaseWriter
    private let commits: GroupCommit
    private static let columns = "id, user_id, title, body, created_at, read_at, deduplication_key"

    /// A repository over `database`.
    package init(database: any DatabaseWriter) {
        self.database = database
        self.commits = GroupCommit(writer: database)
    }

    /// Stores `notification`, unless its deduplication key is taken: then stores nothing and
    /// returns the notification stored first under that key. One transaction decides, so
    /// two racing sends of one key store one notification.
    package func insertOnce(_ notification: Notification) async throws -> Notification {
        try await commits.write { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO notifications (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (deduplication_key) DO NOTHING
                    """
            ).execute(arguments: [
                notification.id, notification.userID, notification.title, notification.body,
                notification.createdAt.microsecondsSinceEpoch,
                notification.readAt?.microsecondsSinceEpoch, notification.deduplicationKey,
            ])
            guard db.changesCount == 0, let key = notification.deduplicationKey else { return notification }
            // Nothing changed, so the key is taken by a row this transaction sees.
            guard let first = try Self.fetchOne(db, where: "deduplication_key = ?", key) else {
                throw ServiceError(.internal, "the deduplication key \(key) is taken, yet no notification has it")
            }
            return first
        }
    }

    /// The notification stored under deduplication key `key`, if any.
    package func notification(deduplicationKey key: String) async throws -> Notification? {
        try await database.read { db in try Self.fetchOne(db, where: "deduplication_key = ?", key) }
    }

    /// The notification with `id`, if any.
    package func notification(id: String) async throws -> Notification? {
        try await database.read { db in try Self.fetchOne(db, where: "id = ?", id) }
    }

    /// `userID`'s newest `limit` notifications after position `after` (only unread ones when
    /// `unreadOnly`), their unread count, and the cursor (bound to `scope`) of the next page.
    /// Keyset paging over (created_at, rowid), newest first: deliveries while a caller pages
    /// land before its position and never shift or repeat what it has not seen yet.
    package func inbox(
        userID: String, unreadOnly: Bool, limit: Int, after: PageCursor? = nil, scope: String = ""
    ) async throws -> InboxPage {
        try await database.read { db in
            var arguments: StatementArguments = [userID]
            var position = ""
            if let after, case .integer(let createdAt) = after.keys[0], case .integer(let rowID) = after.keys[1] {
                position = "AND (created_at, rowid) < (?, ?)"
                arguments += [createdAt, rowID]
            }
            arguments += [limit + 1]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, \(Self.columns) FROM notifications
                    WHERE user_id = ? \(unreadOnly ? "AND read_at IS NULL" : "") \(position)
                    ORDER BY created_at DESC, rowid DESC LIMIT ?
                    """,
                arguments: arguments)
            let unread =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM notifications WHERE user_id = ? AND read_at IS NULL",
                    arguments: [userID]) ?? 0
            let page = PageCursor.page(rows, limit: limit, scope: scope) { row in
                [.integer(row["created_at"]), .integer(row["rowid"])]
            }
            return InboxPage(
                notifications: page.items.map(Self.notification), unreadCount: unread, nextCursor: page.nextCursor)
        }
    }

    /// Marks notification `id` read at `now` unless it was read before (the first time stays);
    /// returns it as stored afterwards.
    package func markRead(id: String, at now: Timestamp) async throws -> Notification? {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE notifications SET read_at = ? WHERE id = ? AND read_at IS NULL",
                arguments: [now.microsecondsSinceEpoch, id])
            return try Self.fetchOne(db, where: "id = ?", id)
        }
    }

    private static func fetchOne(_ db: Database, where condition: String, _ value: String) throws -> Notification? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(columns) FROM notifications WHERE \(condition)"), arguments: [value]
        )
        .map(notification)
    }

    private static func notification(_ row: Row) -> Notification {
        Notification(
            id: row["id"], userID: row["user_id"], title: row["title"], body: row["body"],
            createdAt: Timestamp(microsecondsSinceEpoch: row["created_at"]),
            readAt: (row["read_at"] as Int64?).map(Timestamp.init(microsecondsSinceEpoch:)),
            deduplicationKey: row["deduplication_key"])
    }
}
