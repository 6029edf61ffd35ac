import Foundation
import IOInterface
import Logging
import ServiceKit
import Storage
import Synchronization

/// Everything clinics' use cases depend on, built once in `main.swift`.
///
/// `live` wires the store under the state directory and the runtime's client; `test` an
/// in-memory store (unseeded unless asked), a ``StubCaller`` that fails any call the test
/// did not stub, and a fixed clock.
public struct World: Sendable {
    /// How clinics behaves.
    public struct Settings: Sendable {
        /// Whether a fresh store starts with the seed directory (`CLINICS_SEED`, default on).
        public var seedDirectory = true

        /// The defaults.
        public init() {}

        /// The defaults, overridden by `CLINICS_SEED=0` (also `false`, `no`, `off`): start empty.
        public static func from(environment: [String: String]) -> Settings {
            var settings = Settings()
            if let value = environment["CLINICS_SEED"]?.lowercased(), ["0", "false", "no", "off"].contains(value) {
                settings.seedDirectory = false
            }
            return settings
        }
    }

    /// The current time.
    public var now: @Sendable () -> Timestamp
    /// A new unique clinic id.
    public var newID: @Sendable () -> String
    /// The vertical's own store.
    public var database: any DatabaseWriter
    /// Identity, to check an admin's token.
    public var caller: any ServiceCalling
    /// The settings.
    public var settings: Settings
    /// The daemon's logger.
    public var logger: Logger

    /// Creates a world from its parts.
    public init(
        now: @escaping @Sendable () -> Timestamp, newID: @escaping @Sendable () -> String,
        database: any DatabaseWriter, caller: any ServiceCalling, settings: Settings, logger: Logger
    ) {
        self.now = now
        self.newID = newID
        self.database = database
        self.caller = caller
        self.settings = settings
        self.logger = logger
    }

    /// Clinics read by id, kept for the world's life (see ``ClinicRepository/cache``).
    public let clinicCache = ReadCache<String, Clinics.Clinic>()

    /// Clinics in the store.
    public var clinics: ClinicRepository { ClinicRepository(database: database, cache: clinicCache) }

    /// The daemon's world: the store under `runtime.stateDirectory` (seeded on first start
    /// unless `CLINICS_SEED=0`), the runtime's client for identity.
    public static func live(runtime: ServiceRuntime) throws -> World {
        let settings = Settings.from(environment: runtime.environment)
        let now: @Sendable () -> Timestamp = { .now }
        let database = try SQLiteStore.open(
            // Named for the vertical, so two verticals given one STATE_DIRECTORY never share a store.
            directory: runtime.stateDirectory, fileName: "clinics.sqlite",
            migrator: Migrations.all(seedDirectory: settings.seedDirectory, seededAt: now()))
        return World(
            now: now, newID: randomClinicID, database: database, caller: runtime.client, settings: settings,
            logger: runtime.logger)
    }

    /// A world for unit tests: an in-memory store (empty unless `seedDirectory`), `caller`
    /// answering only what the test stubs, the clock stopped at `now`, ids `c_t1`, `c_t2`, ….
    public static func test(
        caller: any ServiceCalling = StubCaller(), now: Timestamp = Timestamp(secondsSinceEpoch: 1_795_426_200),
        seedDirectory: Bool = false
    ) throws -> World {
        let database = try SQLiteStore.inMemory(migrator: Migrations.all(seedDirectory: seedDirectory, seededAt: now))
        let counter = Counter()
        var settings = Settings()
        settings.seedDirectory = seedDirectory
        return World(
            now: { now }, newID: { "c_t\(counter.next())" }, database: database, caller: caller, settings: settings,
            logger: Logger(label: "clinics.test"))
    }
}

/// `c_` and 64 random bits in hex: unguessable enough for ids, short enough to read.
@Sendable func randomClinicID() -> String {
    let hex = String(UInt64.random(in: .min ... .max), radix: 16)
    return "c_" + String(repeating: "0", count: 16 - hex.count) + hex
}

/// A thread-safe counter for test ids.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
