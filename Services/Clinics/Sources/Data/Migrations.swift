import GRDB
import IOInterface
import VerticalsContract
import VerticalsStorage
import VerticalsWire

/// Clinics' store, version by version. A migration never changes once released; a new
/// one is appended.
///
/// Services and opening hours live in their own tables rather than JSON columns: `nearest`
/// filters by service in SQL through an index, and SQLite's CHECK constraints keep
/// impossible hours (closes before opens, day 8) out of the store whatever code writes it.
/// Reading a list of clinics costs three queries (clinics, services, hours), not one per clinic.
package enum Migrations {
    /// Every migration: the schema (`v1`), then the seed directory (`v2-seed-directory`).
    ///
    /// The seed is a data migration so that it runs exactly once per store. When
    /// `seedDirectory` is false (`CLINICS_SEED=0`, and unit tests) it is recorded as done
    /// without inserting anything, so that store stays empty. It also inserts nothing into
    /// a store that already holds clinics.
    package static func all(seedDirectory: Bool, seededAt: Timestamp) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerSQL([
            (
                "v1",
                """
                CREATE TABLE clinic (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    name_folded TEXT NOT NULL,          -- lowercased name, for case-insensitive search
                    address TEXT NOT NULL,
                    latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                    time_zone TEXT NOT NULL,            -- IANA, e.g. Europe/London
                    phone TEXT,
                    created_at INTEGER NOT NULL         -- microseconds since the Unix epoch
                );
                CREATE INDEX clinic_by_name ON clinic(name_folded, id);

                CREATE TABLE clinic_service (
                    clinic_id TEXT NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
                    service TEXT NOT NULL,              -- clinics.Service wire name
                    PRIMARY KEY (clinic_id, service)
                ) WITHOUT ROWID;
                CREATE INDEX clinic_service_by_service ON clinic_service(service, clinic_id);

                CREATE TABLE opening_hours (
                    clinic_id TEXT NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
                    weekday INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),   -- ISO 8601: Monday 1
                    opens INTEGER NOT NULL CHECK (opens >= 0),                  -- minutes after local midnight
                    closes INTEGER NOT NULL CHECK (closes <= 1440),
                    CHECK (opens < closes),
                    PRIMARY KEY (clinic_id, weekday, opens)
                ) WITHOUT ROWID;
                """
            )
        ])
        migrator.registerMigration("v2-seed-directory") { db in
            guard seedDirectory, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM clinic") == 0 else { return }
            for (index, draft) in SeedDirectory.clinics.enumerated() {
                // The same validation as `create`, so the seed is in canonical form (tests keep it valid).
                let clinic = try draft.validated().clinic(id: SeedDirectory.id(index), createdAt: seededAt)
                try ClinicRepository.insert(clinic, in: db)
            }
        }
        return migrator
    }
}
