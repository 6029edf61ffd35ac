import GRDB
import VerticalsStorage

/// Notifications' store schema, one versioned migration at a time. Run at start-up by
/// `SQLiteStore.open`; a migration, once shipped, never changes — add the next one instead.
package enum Migrations {
    /// Every migration, in order.
    package static var all: DatabaseMigrator {
        .sql([
            // Times are microseconds since the Unix epoch (Timestamp). The implicit rowid orders
            // notifications delivered in the same microsecond. A UNIQUE deduplication key makes
            // a retried send find the first delivery instead of storing a second one.
            (
                "v1",
                """
                CREATE TABLE notifications (
                    id TEXT NOT NULL UNIQUE,
                    user_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    read_at INTEGER,
                    deduplication_key TEXT UNIQUE
                );
                CREATE INDEX notifications_by_user ON notifications(user_id, created_at);
                """
            )
        ])
    }
}
