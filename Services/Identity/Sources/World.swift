#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IOInterface
import Logging
import ServiceKit
import Storage

/// Everything identity's use cases depend on, built once: in `main.swift` by ``live(runtime:)``,
/// in tests by ``test(clock:caller:settings:)``. Use cases reach nothing else.
public struct World: Sendable {
    /// The current time.
    public var clock: @Sendable () -> Timestamp
    /// New ids for users.
    public var makeID: @Sendable () -> String
    /// Identity's own store.
    public var database: any DatabaseWriter
    /// Other verticals (identity calls none today; kept so every World has the same shape).
    public var caller: any ServiceCalling
    /// The daemon's logger.
    public var logger: Logger
    /// Session lifetime, admin bootstrap, Argon2id limits.
    public var settings: Settings
    /// Argon2id with ``Settings/passwordLimits``.
    public var passwords: PasswordHasher
    /// The uids of local operators, who may create the first admin (``CreateFirstAdmin``):
    /// root and the uid identity runs as.
    public var operatorUIDs: Set<UInt32> = [0, geteuid()]

    /// Creates a World from its parts.
    public init(
        clock: @escaping @Sendable () -> Timestamp, makeID: @escaping @Sendable () -> String,
        database: any DatabaseWriter, caller: any ServiceCalling, logger: Logger, settings: Settings
    ) throws {
        self.clock = clock
        self.makeID = makeID
        self.database = database
        self.caller = caller
        self.logger = logger
        self.settings = settings
        passwords = try PasswordHasher(limits: settings.passwordLimits)
    }

    /// Sessions read by token hash, kept for the world's life (see ``SessionRepository/cache``).
    public let sessionCache = ReadCache<String, SessionRepository.StoredSession>()

    /// Users and roles in ``database``.
    public var users: UserRepository { UserRepository(database: database, sessions: sessionCache) }
    /// Sessions in ``database``.
    public var sessions: SessionRepository { SessionRepository(database: database, cache: sessionCache) }

    /// The daemon's World: settings from the environment (see ``Settings/from(environment:)``),
    /// the store under the state directory with full durability (a session acknowledged to a
    /// client must survive a power cut, or a logged-out token could come back), the system clock.
    public static func live(runtime: ServiceRuntime) throws -> World {
        let settings = try Settings.from(environment: runtime.environment)
        let database = try SQLiteStore.open(
            directory: runtime.stateDirectory, fileName: "identity.sqlite", migrator: Migrations.all)
        return try World(
            clock: { .now }, makeID: randomID, database: database, caller: runtime.client, logger: runtime.logger,
            settings: settings)
    }

    /// A World for tests: an in-memory store, a fixed clock (pass your own to move time), a
    /// caller that fails every call the test did not stub, and libsodium's *minimum* Argon2id
    /// limits so a test hashes in microseconds. Never use these limits outside tests.
    public static func test(
        clock: @escaping @Sendable () -> Timestamp = { Timestamp(secondsSinceEpoch: 1_795_426_200) },
        caller: StubCaller = StubCaller(),
        settings: Settings = Settings(passwordLimits: .minimum),
        database: (any DatabaseWriter)? = nil
    ) throws -> World {
        try World(
            clock: clock, makeID: randomID, database: database ?? SQLiteStore.inMemory(migrator: Migrations.all),
            caller: caller, logger: Logger(label: "identity.test"), settings: settings)
    }

    /// A random (version 4) UUID in lower-case text.
    @Sendable static func randomID() -> String {
        UUID().uuidString.lowercased()
    }
}
