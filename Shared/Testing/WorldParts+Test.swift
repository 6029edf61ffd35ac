import GRDB
import Logging
import VerticalsClient
import VerticalsServiceKit
import VerticalsStorage

extension WorldParts {
    /// The parts of a unit test's World: an in-memory store migrated by `migrator` (or
    /// `database`, to share one store between two Worlds), the clock `clock`, ids from `newID`
    /// (`t1`, `t2`, … unless told), `caller` (a strict ``StubCaller`` stubbing nothing unless
    /// told: any call fails the test), limited to `calls` (a `DeclaredCaller`: a call the World
    /// does not declare fails the test as `permissionDenied`), and a logger labelled `label`.
    ///
    /// ```swift
    /// let world = World(parts: try .test(migrator: Migrations.all, caller: .suite(), calls: World.calls), settings: .test)
    /// ```
    public static func test(
        migrator: DatabaseMigrator, database: (any DatabaseWriter)? = nil, clock: TestClock = TestClock(),
        newID: @escaping @Sendable () -> String = SequentialIDs(prefix: "t").next,
        caller: any ServiceCalling = StubCaller(), calls: Callees, label: String = "test"
    ) throws -> WorldParts {
        WorldParts(
            now: clock.read, newID: newID, database: try database ?? SQLiteStore.inMemory(migrator: migrator),
            caller: DeclaredCaller(caller, callees: calls, vertical: label), logger: Logger(label: label))
    }
}
