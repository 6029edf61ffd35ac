import GRDB
import VerticalsStorage

/// Records' store, version by version. A migration never changes once released; a new one is appended.
package enum Migrations {
    /// Every migration.
    package static var all: DatabaseMigrator {
        .sql([
            (
                "v1",
                """
                CREATE TABLE entry (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL,
                    kind TEXT NOT NULL,                 -- records.EntryKind wire name
                    text TEXT NOT NULL,
                    clinic_id TEXT,                     -- clinics' id; clinics owns the name
                    created_at INTEGER NOT NULL         -- microseconds since the Unix epoch
                );
                -- A history is one user's entries, newest first, optionally of one kind.
                CREATE INDEX entry_by_user ON entry(user_id, created_at);
                """
            )
        ])
    }
}
