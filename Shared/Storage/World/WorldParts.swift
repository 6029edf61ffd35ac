import GRDB
import Logging
import VerticalsClient
import VerticalsServiceKit
import VerticalsWire

/// What every vertical's `World` holds, whatever the vertical: the clock, a maker of new ids,
/// the vertical's own store, the caller of other verticals and the daemon's logger.
///
/// A World keeps these in one ``VerticalWorld/parts`` and lists beside them only what is its
/// own (settings, repositories, background work). ``live(runtime:migrator:newID:calls:)`` builds them
/// for the daemon the same way for every vertical; a test builds them with fakes.
public struct WorldParts: Sendable {
    /// The current time.
    public var now: @Sendable () -> Timestamp
    /// A new unique id for something the vertical stores (its own format, e.g. `c_` and 16 hex digits).
    public var newID: @Sendable () -> String
    /// The vertical's own store. Nobody else reads it.
    public var database: any DatabaseWriter
    /// Other verticals: `ServiceClient` in the daemon, a stub in a unit test.
    public var caller: any ServiceCalling
    /// The daemon's logger.
    public var logger: Logger

    /// Parts from what is given.
    public init(
        now: @escaping @Sendable () -> Timestamp, newID: @escaping @Sendable () -> String,
        database: any DatabaseWriter, caller: any ServiceCalling, logger: Logger
    ) {
        self.now = now
        self.newID = newID
        self.database = database
        self.caller = caller
        self.logger = logger
    }

    /// The daemon's parts: the store `<name>.sqlite` in the runtime's state directory, opened
    /// with full durability (a change acknowledged to a client is on disk) and migrated by
    /// `migrator`; the system clock; the runtime's client, limited to `calls` (a
    /// `DeclaredCaller`), and its logger.
    ///
    /// Logs a warning naming the edge when `calls` and the manifest's `depends_on` (as the
    /// manager passes it) differ (`Callees/disagreement(environment:vertical:)`).
    ///
    /// The store is named for the vertical, so two verticals given one `STATE_DIRECTORY` never
    /// share a store (and `SQLiteStore` refuses another vertical's store by its owner mark).
    ///
    /// Under `--place-replica-copy` (`ServiceRuntime/placesReplicaCopy`) it opens nothing: it puts
    /// the copy restored from the replica in place, checked
    /// (``SQLiteStore/placeReplicaCopy(directory:fileName:owner:migrator:)``), and throws what the
    /// daemon answers, or why the copy was refused.
    public static func live(
        runtime: ServiceRuntime, migrator: DatabaseMigrator, newID: @escaping @Sendable () -> String,
        calls: Callees
    ) throws -> WorldParts {
        // Under `--place-replica-copy` the copy restored from the replica is checked and put in
        // place, and the daemon ends there: the store is not opened.
        if runtime.placesReplicaCopy {
            let line = try SQLiteStore.placeReplicaCopy(
                directory: runtime.stateDirectory, fileName: "\(runtime.name).sqlite", migrator: migrator)
            throw ReplicaCopyPlaced(line: line)
        }
        if let disagreement = calls.disagreement(environment: runtime.environment, vertical: runtime.name) {
            runtime.logger.warning("\(disagreement)")
        }
        // Under `--check` the store is checked, never created (``SQLiteStore/checking``); an
        // upgrade's new process waits for the old one to hand it over (``SQLiteStore/HandOver``).
        let database = try SQLiteStore.$checking.withValue(runtime.checkOnly) {
            try SQLiteStore.$handOver.withValue(handOver(runtime)) {
                try SQLiteStore.$replication.withValue(SQLiteStore.Replication(environment: runtime.environment)) {
                    try SQLiteStore.open(
                        directory: runtime.stateDirectory, fileName: "\(runtime.name).sqlite", migrator: migrator)
                }
            }
        }
        return WorldParts(
            now: { .now }, newID: newID, database: database,
            caller: DeclaredCaller(runtime.client, callees: calls, vertical: runtime.name), logger: runtime.logger)
    }

    /// The store hand-over of an upgrade's new process (``SQLiteStore/HandOver``), said to the
    /// supervisor over `NOTIFY_SOCKET`; nil unless it started the process for one.
    private static func handOver(_ runtime: ServiceRuntime) -> SQLiteStore.HandOver? {
        guard runtime.environment[SQLiteStore.HandOver.environmentKey] == "1", !runtime.checkOnly else { return nil }
        let notifier = Notifier(environment: runtime.environment)
        let logger = runtime.logger
        return SQLiteStore.HandOver(
            waiting: { holder in
                logger.info(
                    "prepared; waiting for \(holder.map { "pid \($0)" } ?? "the process") that holds the store to hand it over"
                )
                notifier.notify("\(SQLiteStore.HandOver.waitingKey)=1", "STATUS=prepared; waiting for the store")
            },
            backedUp: { path in
                logger.notice("migrating the store: its backup first, as \(path)")
                notifier.notify("\(SQLiteStore.HandOver.backupKey)=\(path)", "STATUS=migrating the store")
            })
    }
}
