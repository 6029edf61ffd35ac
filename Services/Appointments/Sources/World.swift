import IOInterface
import Logging
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage

/// Everything appointments' use cases depend on, built once: in `main.swift` by ``live(runtime:)``,
/// in tests from test ``WorldParts``. Its ``parts`` are what every vertical has; the rest is
/// appointments' own.
package struct World: VerticalWorld {
    /// The operations it calls, one by one: identity (sessions), clinics (slots) and notifications (the outbox).
    /// Its caller refuses any other (``DeclaredCaller``), its daemon warns when deploy/suite.toml's
    /// `depends_on` differs, and the callee refuses what `depends_on` does not name.
    package static let calls: Callees = Callees(Identity.authenticate, Clinics.checkSlot, Notifications.send)
    /// How appointments behaves; every knob has a safe default.
    package struct Settings: Sendable {
        /// Bookings one clinic takes at once for one service (its rooms or chairs).
        package var slotCapacity = 2
        /// The longest a booking waits for notifications before answering without it.
        package var notifyTimeout: Duration = .milliseconds(500)
        /// The first retry delay of an undelivered notification; doubles up to `maxRetryDelay`.
        package var firstRetryDelay: Duration = .milliseconds(250)
        /// The longest delay between two retries.
        package var maxRetryDelay: Duration = .seconds(30)

        /// The defaults.
        package init() {}

        /// The defaults, overridden by `APPOINTMENTS_SLOT_CAPACITY` and `APPOINTMENTS_RETRY_MAX_MS`.
        package static func from(environment: [String: String]) -> Settings {
            var settings = Settings()
            if let value = Self.slotCapacity.validValue(in: environment) {
                settings.slotCapacity = value
            }
            if let value = Self.retryMaxMilliseconds.validValue(in: environment) {
                settings.maxRetryDelay = .milliseconds(Int64(value))
            }
            return settings
        }
    }

    /// The clock, ids (`a_` and a UUID), store, caller (identity, clinics and notifications) and logger.
    package var parts: WorldParts
    /// Bookings and the outbox, in the store.
    package var store: BookingStore
    /// The settings.
    package var settings: Settings
    /// Sends what the outbox holds.
    package var outbox: OutboxDrainer

    /// Creates a world from its parts; `background` runs the outbox's retries.
    package init(parts: WorldParts, settings: Settings, background: BackgroundWork) {
        self.parts = parts
        self.settings = settings
        self.store = BookingStore(database: parts.database, sharingCommits: true)
        self.outbox = OutboxDrainer(
            store: store, caller: parts.caller, now: parts.now, settings: settings, logger: parts.logger,
            background: background)
    }

    /// The daemon's world: the common parts (``WorldParts/live(runtime:migrator:newID:calls:)``), the
    /// runtime's background work for the outbox.
    package static func live(runtime: ServiceRuntime) throws -> World {
        World(
            parts: try .live(
                runtime: runtime, migrator: Migrations.all, newID: { "a_" + RandomID.uuidString() }, calls: calls),
            settings: .from(environment: runtime.environment), background: runtime.background)
    }
}
