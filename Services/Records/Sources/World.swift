import IOInterface
import Logging
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage

/// Everything records' use cases depend on, built once: in `main.swift` by ``live(runtime:)``, in
/// tests from test ``WorldParts``. Its ``parts`` are what every vertical has; the rest is records' own.
package struct World: VerticalWorld {
    /// The operations it calls, one by one: identity (sessions) and clinics (names, pharmacies).
    /// Its caller refuses any other (``DeclaredCaller``), its daemon warns when deploy/suite.toml's
    /// `depends_on` differs, and the callee refuses what `depends_on` does not name.
    package static let calls: Callees = Callees(Identity.authenticate, Clinics.get, Clinics.getMany, Clinics.nearest)
    /// How records behaves.
    package struct Settings: Sendable {
        /// The longest a history waits for clinic names before answering without them.
        package var clinicNamesTimeout: Duration = .seconds(1)

        /// The defaults.
        package init() {}

        /// The defaults, overridden by `RECORDS_CLINIC_NAMES_TIMEOUT_MS`.
        package static func from(environment: [String: String]) -> Settings {
            var settings = Settings()
            if let value = Self.clinicNamesTimeout.validValue(in: environment) {
                settings.clinicNamesTimeout = .milliseconds(Int64(value))
            }
            return settings
        }
    }

    /// The clock, ids (`r_` and 16 hex digits), store, caller (identity for tokens, clinics for
    /// names and pharmacies) and logger.
    package var parts: WorldParts
    /// The settings.
    package var settings: Settings
    // (Built by `live(runtime:)`, or by tests through the memberwise `init(parts:settings:)`.)

    /// Entries in the store.
    package var entries: EntryRepository { EntryRepository(database: database) }

    /// The daemon's world: the common parts (``WorldParts/live(runtime:migrator:newID:calls:)``; clinical
    /// data, so every acknowledged entry is on disk: `synchronous=FULL`).
    package static func live(runtime: ServiceRuntime) throws -> World {
        World(
            parts: try .live(runtime: runtime, migrator: Migrations.all, newID: randomEntryID, calls: calls),
            settings: .from(environment: runtime.environment))
    }
}

/// `r_` and 64 random bits in hex.
@Sendable func randomEntryID() -> String {
    let hex = String(UInt64.random(in: .min ... .max), radix: 16)
    return "r_" + String(repeating: "0", count: 16 - hex.count) + hex
}
