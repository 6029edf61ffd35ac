import Foundation
import IOInterface
import Logging
import ServiceKit
import Storage

/// Everything appointments' use cases depend on, built once in `main.swift`.
///
/// `live` wires the real store and the real client; `test` an in-memory store, a
/// ``StubCaller`` that fails any call the test did not stub, and a fixed clock.
public struct World: Sendable {
    /// How appointments behaves; every knob has a safe default.
    public struct Settings: Sendable {
        /// Bookings one clinic takes at once for one service (its rooms or chairs).
        public var slotCapacity = 2
        /// The longest a booking waits for notifications before answering without it.
        public var notifyTimeout: Duration = .milliseconds(500)
        /// The first retry delay of an undelivered notification; doubles up to `maxRetryDelay`.
        public var firstRetryDelay: Duration = .milliseconds(250)
        /// The longest delay between two retries.
        public var maxRetryDelay: Duration = .seconds(30)

        /// The defaults.
        public init() {}

        /// The defaults, overridden by `APPOINTMENTS_SLOT_CAPACITY` and `APPOINTMENTS_RETRY_MAX_MS`.
        public static func from(environment: [String: String]) -> Settings {
            var settings = Settings()
            if let value = environment["APPOINTMENTS_SLOT_CAPACITY"].flatMap(Int.init), value > 0 {
                settings.slotCapacity = value
            }
            if let value = environment["APPOINTMENTS_RETRY_MAX_MS"].flatMap(Int64.init), value > 0 {
                settings.maxRetryDelay = .milliseconds(value)
            }
            return settings
        }
    }

    /// The current time.
    public var now: @Sendable () -> Timestamp
    /// A new unique booking id.
    public var newID: @Sendable () -> String
    /// Bookings and the outbox.
    public var store: BookingStore
    /// Identity, clinics and notifications.
    public var caller: any ServiceCalling
    /// The settings.
    public var settings: Settings
    /// The daemon's logger.
    public var logger: Logger
    /// Sends what the outbox holds.
    public var outbox: OutboxDrainer

    /// Creates a world from its parts.
    public init(
        now: @escaping @Sendable () -> Timestamp, newID: @escaping @Sendable () -> String, store: BookingStore,
        caller: any ServiceCalling, settings: Settings, logger: Logger, background: BackgroundWork
    ) {
        self.now = now
        self.newID = newID
        self.store = store
        self.caller = caller
        self.settings = settings
        self.logger = logger
        self.outbox = OutboxDrainer(
            store: store, caller: caller, now: now, settings: settings, logger: logger, background: background)
    }

    /// The daemon's world: its store under the state directory, the runtime's client.
    public static func live(runtime: ServiceRuntime) throws -> World {
        let database = try SQLiteStore.open(
            directory: runtime.stateDirectory, fileName: "appointments.sqlite", migrator: Migrations.all)
        return World(
            now: { Timestamp.now }, newID: { "a_" + RandomID.uuidString() },
            store: BookingStore(database: database, sharingCommits: true), caller: runtime.client,
            settings: .from(environment: runtime.environment), logger: runtime.logger, background: runtime.background)
    }
}
