import GRDB
import IOInterface
import Logging
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage

/// Everything clinics' use cases depend on, built once: in `main.swift` by ``live(runtime:)``, in
/// tests from test ``WorldParts``. Its ``parts`` are what every vertical has; the rest is clinics' own.
package struct World: VerticalWorld {
    /// The operations it calls, one by one: identity (sessions).
    /// Its caller refuses any other (``DeclaredCaller``), its daemon warns when deploy/suite.toml's
    /// `depends_on` differs, and the callee refuses what `depends_on` does not name.
    package static let calls: Callees = Callees(Identity.authenticate)
    /// How clinics behaves.
    package struct Settings: Sendable {
        /// Whether a fresh store starts with the seed directory (`CLINICS_SEED`, default on).
        package var seedDirectory = true

        /// The defaults.
        package init() {}

        /// The defaults, overridden by `CLINICS_SEED=0` (also `false`, `no`, `off`): start empty.
        package static func from(environment: [String: String]) -> Settings {
            var settings = Settings()
            if let value = environment[Self.seed.name]?.lowercased(), ["0", "false", "no", "off"].contains(value) {
                settings.seedDirectory = false
            }
            return settings
        }
    }

    /// The clock, ids (`c_` and 16 hex digits), store, caller (identity, to check an admin's
    /// token) and logger.
    package var parts: WorldParts
    /// The settings.
    package var settings: Settings
    // (Built by `live(runtime:)`, or by tests through the memberwise `init(parts:settings:)`.)

    /// Clinics read by id, kept for the world's life (see ``ClinicRepository/cache``).
    package let clinicCache = ReadCache<String, Clinics.Clinic>()

    /// Clinics in the store.
    package var clinics: ClinicRepository { ClinicRepository(database: database, cache: clinicCache) }

    /// The daemon's world: the common parts (``WorldParts/live(runtime:migrator:newID:calls:)``), the
    /// store seeded on first start unless `CLINICS_SEED=0`.
    package static func live(runtime: ServiceRuntime) throws -> World {
        let settings = Settings.from(environment: runtime.environment)
        let migrator = Migrations.all(seedDirectory: settings.seedDirectory, seededAt: .now)
        return World(
            parts: try .live(runtime: runtime, migrator: migrator, newID: randomClinicID, calls: calls),
            settings: settings)
    }
}

/// `c_` and 64 random bits in hex: unguessable enough for ids, short enough to read.
@Sendable func randomClinicID() -> String {
    let hex = String(UInt64.random(in: .min ... .max), radix: 16)
    return "c_" + String(repeating: "0", count: 16 - hex.count) + hex
}
