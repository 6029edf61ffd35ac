import GRDB
import VerticalsStorage

/// Identity's store schema, one versioned migration at a time. Run at start-up by
/// `SQLiteStore.open`; a migration, once shipped, never changes — add the next one instead.
package enum Migrations {
    /// Every migration, in order.
    package static var all: DatabaseMigrator {
        .sql([
            // Times are microseconds since the Unix epoch (Timestamp), ids UUID text.
            (
                "v1",
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    email TEXT NOT NULL UNIQUE,
                    display_name TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE user_roles (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    role TEXT NOT NULL,
                    PRIMARY KEY (user_id, role)
                ) WITHOUT ROWID;
                -- A session is found by the SHA-256 of its token; the token itself is never stored.
                CREATE TABLE sessions (
                    token_hash TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    revoked_at INTEGER
                ) WITHOUT ROWID;
                CREATE INDEX sessions_by_user ON sessions(user_id);
                """
            ),
            // A password's generation: raised by every password change and by logging out
            // everywhere. A login reads it with the hash and opens its session only if it is
            // unchanged, in the session's own transaction (``SessionRepository/insert(tokenHash:userID:generation:createdAt:expiresAt:)``).
            (
                "v2",
                """
                ALTER TABLE users ADD COLUMN password_generation INTEGER NOT NULL DEFAULT 0;
                """
            ),
        ])
    }
}
