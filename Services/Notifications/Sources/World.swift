#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IOInterface
import Logging
import ServiceKit
import Storage

/// Everything notifications' use cases depend on, built once: in `main.swift` by
/// ``live(runtime:)``, in tests by ``test(clock:caller:database:)``. Use cases reach nothing else.
public struct World: Sendable {
    /// The current time.
    public var clock: @Sendable () -> Timestamp
    /// New ids for notifications.
    public var makeID: @Sendable () -> String
    /// Notifications' own store.
    public var database: any DatabaseWriter
    /// Other verticals: identity checks tokens (`authenticate`) and recipients (`getUser`).
    public var caller: any ServiceCalling
    /// The daemon's logger.
    public var logger: Logger
    /// Notifications in ``database``, stored through shared commits (see ``GroupCommit``).
    public let notifications: NotificationRepository
    /// The recipients identity already confirmed.
    public let knownRecipients = KnownRecipients()

    /// Creates a World from its parts.
    public init(
        clock: @escaping @Sendable () -> Timestamp, makeID: @escaping @Sendable () -> String,
        database: any DatabaseWriter, caller: any ServiceCalling, logger: Logger
    ) {
        self.clock = clock
        self.makeID = makeID
        self.database = database
        self.caller = caller
        self.logger = logger
        self.notifications = NotificationRepository(database: database)
    }

    /// The daemon's World: the store under the state directory with full durability (a sender
    /// drops its outbox entry once `send` answers, so an acknowledged notification must be on
    /// disk), the system clock, and the runtime's client for identity.
    public static func live(runtime: ServiceRuntime) throws -> World {
        World(
            clock: { .now }, makeID: randomID,
            database: try SQLiteStore.open(
                directory: runtime.stateDirectory, fileName: "notifications.sqlite", migrator: Migrations.all),
            caller: runtime.client, logger: runtime.logger)
    }

    /// A World for tests: an in-memory store, a fixed clock (pass your own to move time), and
    /// a caller that fails every call the test did not stub.
    public static func test(
        clock: @escaping @Sendable () -> Timestamp = { Timestamp(secondsSinceEpoch: 1_795_426_200) },
        caller: StubCaller = StubCaller(), database: (any DatabaseWriter)? = nil
    ) throws -> World {
        World(
            clock: clock, makeID: randomID, database: try database ?? SQLiteStore.inMemory(migrator: Migrations.all),
            caller: caller, logger: Logger(label: "notifications.test"))
    }

    /// A random (version 4) UUID in lower-case text.
    @Sendable static func randomID() -> String {
        RandomID.uuidString()
    }
}
