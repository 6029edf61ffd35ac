import IOInterface
import Logging
import ServiceKit
import Storage
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Everything records' use cases depend on, built once in `main.swift`.
///
/// `live` wires the store under the state directory and the runtime's client; `test` an
/// in-memory store, a ``StubCaller`` that fails any call the test did not stub, and a
/// fixed clock.
public struct World: Sendable {
    /// How records behaves.
    public struct Settings: Sendable {
        /// The longest a history waits for clinic names before answering without them.
        public var clinicNamesTimeout: Duration = .seconds(1)

        /// The defaults.
        public init() {}

        /// The defaults, overridden by `RECORDS_CLINIC_NAMES_TIMEOUT_MS`.
        public static func from(environment: [String: String]) -> Settings {
            var settings = Settings()
            if let value = environment["RECORDS_CLINIC_NAMES_TIMEOUT_MS"].flatMap(Int64.init), value > 0 {
                settings.clinicNamesTimeout = .milliseconds(value)
            }
            return settings
        }
    }

    /// The current time.
    public var now: @Sendable () -> Timestamp
    /// A new unique entry id.
    public var newID: @Sendable () -> String
    /// The vertical's own store.
    public var database: any DatabaseWriter
    /// Identity (tokens) and clinics (names, pharmacies).
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

    /// Entries in the store.
    public var entries: EntryRepository { EntryRepository(database: database) }

    /// The daemon's world: the store under `runtime.stateDirectory` (clinical data, so every
    /// acknowledged entry is on disk: `synchronous=FULL`), the runtime's client.
    public static func live(runtime: ServiceRuntime) throws -> World {
        // Named for the vertical, so two verticals given one STATE_DIRECTORY never share a store.
        let database = try SQLiteStore.open(
            directory: runtime.stateDirectory, fileName: "records.sqlite", migrator: Migrations.all)
        return World(
            now: { .now }, newID: randomEntryID, database: database, caller: runtime.client,
            settings: .from(environment: runtime.environment), logger: runtime.logger)
    }

    /// A world for unit tests: an in-memory store, `caller` answering only what the test
    /// stubs, the clock stopped at `now`, ids `r_t1`, `r_t2`, ….
    public static func test(
        caller: any ServiceCalling = StubCaller(), now: Timestamp = Timestamp(secondsSinceEpoch: 1_795_426_200),
        settings: Settings = Settings()
    ) throws -> World {
        let counter = Counter()
        return World(
            now: { now }, newID: { "r_t\(counter.next())" },
            database: try SQLiteStore.inMemory(migrator: Migrations.all), caller: caller, settings: settings,
            logger: Logger(label: "records.test"))
    }
}

/// `r_` and 64 random bits in hex.
@Sendable func randomEntryID() -> String {
    let hex = String(UInt64.random(in: .min ... .max), radix: 16)
    return "r_" + String(repeating: "0", count: 16 - hex.count) + hex
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
