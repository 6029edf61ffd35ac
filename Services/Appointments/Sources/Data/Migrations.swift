import GRDB
import VerticalsStorage

/// The versions of appointments' store, applied in order at start-up.
///
/// Public, unlike the rest of this library (package access), for one outside user: `make bench`'s
/// durability floor commits appointments' own booking transaction in-process (Benchmarks/, another package).
public enum Migrations {
    /// Every migration, oldest first. Never edit one that has shipped: add the next.
    public static var all: DatabaseMigrator {
        .sql([
            (
                "v1-bookings-and-outbox",
                """
                CREATE TABLE bookings (
                    id TEXT PRIMARY KEY,
                    patient_id TEXT NOT NULL,
                    clinic_id TEXT NOT NULL,
                    clinic_name TEXT NOT NULL,
                    service TEXT NOT NULL,
                    starts_at INTEGER NOT NULL,   -- microseconds since the Unix epoch
                    ends_at INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    request_id TEXT NOT NULL,
                    notified INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (patient_id, request_id)
                );
                CREATE INDEX bookings_by_patient ON bookings (patient_id, starts_at);
                CREATE INDEX bookings_by_clinic ON bookings (clinic_id, service, starts_at);
                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    appointment_id TEXT NOT NULL REFERENCES bookings (id),
                    user_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    deduplication_key TEXT NOT NULL UNIQUE,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER NOT NULL,
                    delivered_at INTEGER
                );
                CREATE INDEX outbox_due ON outbox (delivered_at, next_attempt_at);
                """
            )
        ])
    }
}
