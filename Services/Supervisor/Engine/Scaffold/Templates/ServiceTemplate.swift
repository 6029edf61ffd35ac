/// The `Services/<Name>/` files of a new vertical: Domain, Data, Endpoint, its World and
/// `main.swift`, shaped like the reference suite's verticals.
enum ServiceTemplate {
    /// `Services/<Name>/Sources/World.swift`.
    static func world(_ v: VerticalName, calls: [VerticalName]) -> String {
        let peers = calls.isEmpty
            ? "None yet; add the service to `depends_on` in deploy/suite.toml when it starts calling one."
            : calls.map(\.name).joined(separator: ", ")
                + " (its `depends_on` in deploy/suite.toml), e.g.\n    /// `try await caller.call(\(calls[0].typeName).<operation>, …)`."
        return #"""
            import IOInterface
            import Logging
            import VerticalsServiceKit
            import VerticalsStorage

            /// Everything \#(v.name)'s use cases depend on, built once: in `main.swift` by
            /// ``live(runtime:)``, in tests by ``test(clock:caller:)``. Use cases reach nothing else.
            public struct World: Sendable {
                /// The current time.
                public var clock: @Sendable () -> Timestamp
                /// \#(v.typeName)'s own store.
                public var database: any DatabaseWriter
                /// Other verticals. Calls: \#(peers)
                public var caller: any ServiceCalling
                /// The daemon's logger.
                public var logger: Logger

                /// Creates a World from its parts.
                public init(
                    clock: @escaping @Sendable () -> Timestamp, database: any DatabaseWriter, caller: any ServiceCalling,
                    logger: Logger
                ) {
                    self.clock = clock
                    self.database = database
                    self.caller = caller
                    self.logger = logger
                }

                /// Greetings in ``database``.
                public var greetings: GreetingRepository { GreetingRepository(database: database) }

                /// The daemon's World: the store under the state directory, the system clock and the
                /// runtime's client for other verticals.
                public static func live(runtime: ServiceRuntime) throws -> World {
                    World(
                        clock: { .now },
                        database: try SQLiteStore.open(
                            directory: runtime.stateDirectory, fileName: "\#(v.name).sqlite", migrator: Migrations.all),
                        caller: runtime.client, logger: runtime.logger)
                }

                /// A World for tests: an in-memory store, a fixed clock, and a caller that fails every
                /// call the test did not stub.
                public static func test(
                    clock: @escaping @Sendable () -> Timestamp = { Timestamp(secondsSinceEpoch: 1_795_426_200) },
                    caller: StubCaller = StubCaller()
                ) throws -> World {
                    World(
                        clock: clock, database: try SQLiteStore.inMemory(migrator: Migrations.all), caller: caller,
                        logger: Logger(label: "\#(v.name).test"))
                }
            }

            """#
    }

    /// `Services/<Name>/Sources/Domain/Models/<Name>Failure.swift`.
    static func failure(_ v: VerticalName) -> String {
        #"""
        /// Why a \#(v.name) use case refused: the domain's reasons, which the Endpoint turns into
        /// typed `ServiceError`s. (Errors of other verticals arrive as `ServiceError`s and pass through.)
        public enum \#(v.typeName)Failure: Error, Equatable, Sendable {
            /// A field broke a rule the caller can fix.
            case invalid(field: String, reason: String)
        }

        """#
    }

    /// `Services/<Name>/Sources/Domain/Models/Greeting.swift`.
    static func model(_ v: VerticalName) -> String {
        #"""
        /// A greeting as \#(v.name)'s domain sees it.
        public struct Greeting: Equatable, Sendable {
            /// Who was greeted.
            public var name: String
            /// How many times, this time included.
            public var count: Int

            /// Creates a greeting.
            public init(name: String, count: Int) {
                self.name = name
                self.count = count
            }

            /// The words of the greeting.
            public var text: String { "Hello, \(name)!" }
        }

        """#
    }

    /// `Services/<Name>/Sources/Domain/UseCases/Greet.swift`.
    static func useCase(_ v: VerticalName) -> String {
        #"""
        /// Greets someone and counts the greeting in \#(v.name)'s store: the example use case.
        public struct Greet: Sendable {
            let world: World

            /// The longest name accepted.
            public static let maxNameLength = 100

            /// A use case over `world`.
            public init(world: World) {
                self.world = world
            }

            /// The greeting for `name`, counted.
            public func execute(name: String) async throws -> Greeting {
                let trimmed = name.trimmingWhitespace()
                guard !trimmed.isEmpty else {
                    throw \#(v.typeName)Failure.invalid(field: "name", reason: "the name is empty")
                }
                guard trimmed.count <= Self.maxNameLength else {
                    throw \#(v.typeName)Failure.invalid(field: "name", reason: "the name is longer than \(Self.maxNameLength) characters")
                }
                let count = try await world.greetings.count(name: trimmed, at: world.clock())
                return Greeting(name: trimmed, count: count)
            }
        }

        extension String {
            /// The string without leading and trailing spaces, tabs and newlines.
            func trimmingWhitespace() -> String {
                let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
            }
        }

        """#
    }

    /// `Services/<Name>/Sources/Data/Migrations.swift`.
    static func migrations(_ v: VerticalName) -> String {
        #"""
        import VerticalsStorage

        /// \#(v.typeName)'s store schema, one versioned migration at a time. Run at start-up by
        /// `SQLiteStore.open`; a migration, once shipped, never changes: add the next one instead.
        public enum Migrations {
            /// Every migration, in order.
            public static var all: DatabaseMigrator {
                var migrator = DatabaseMigrator()
                migrator.registerMigration("v1") { db in
                    // Times are microseconds since the Unix epoch (Timestamp).
                    try db.execute(
                        sql: """
                            CREATE TABLE greetings (
                                name TEXT NOT NULL PRIMARY KEY,
                                count INTEGER NOT NULL,
                                last_greeted_at INTEGER NOT NULL
                            );
                            """)
                }
                return migrator
            }
        }

        """#
    }

    /// `Services/<Name>/Sources/Data/GreetingRepository.swift`.
    static func repository(_ v: VerticalName) -> String {
        #"""
        import IOInterface
        import VerticalsStorage

        /// Greeting counts in \#(v.name)'s own SQLite store.
        public struct GreetingRepository: Sendable {
            private let database: any DatabaseWriter

            /// A repository over `database`.
            public init(database: any DatabaseWriter) {
                self.database = database
            }

            /// Counts one more greeting of `name` at `time`, in one transaction, and returns the new count.
            public func count(name: String, at time: Timestamp) async throws -> Int {
                try await database.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO greetings (name, count, last_greeted_at) VALUES (?, 1, ?)
                            ON CONFLICT (name) DO UPDATE SET count = count + 1, last_greeted_at = excluded.last_greeted_at
                            """,
                        arguments: [name, time.microsecondsSinceEpoch])
                    return try Int.fetchOne(db, sql: "SELECT count FROM greetings WHERE name = ?", arguments: [name]) ?? 0
                }
            }
        }

        """#
    }

    /// `Services/<Name>/Sources/Endpoint/Endpoint.swift`.
    static func endpoint(_ v: VerticalName) -> String {
        #"""
        import IOInterface
        import VerticalsServiceKit

        /// \#(v.typeName)'s routes: each operation of the ``\#(v.typeName)`` contract mapped to its use
        /// case, the result to the contract's Output, and ``\#(v.typeName)Failure`` to a typed `ServiceError`.
        public enum Endpoint {
            /// The router `svc-\#(v.name)` serves.
            public static func routes(world: World) -> Router {
                var router = Router(service: \#(v.typeName).self)
                router.on(\#(v.typeName).hello) { input, _ in
                    try await mapping {
                        let greeting = try await Greet(world: world).execute(name: input.name)
                        return \#(v.typeName).Greeting(text: greeting.text, count: greeting.count)
                    }
                }
                return router
            }

            /// Runs `body`, turning a ``\#(v.typeName)Failure`` into the `ServiceError` a caller sees.
            static func mapping<Output>(_ body: () async throws -> Output) async throws -> Output {
                do {
                    return try await body()
                } catch let failure as \#(v.typeName)Failure {
                    throw ServiceError(failure)
                }
            }
        }

        extension ServiceError {
            /// The wire form of a domain refusal: a code to branch on, a message for a person.
            init(_ failure: \#(v.typeName)Failure) {
                switch failure {
                case .invalid(let field, let reason):
                    self.init(.invalidInput, "\(reason); correct \(field) and try again", details: [ErrorDetail("field", field)])
                }
            }
        }

        """#
    }

    /// `Services/<Name>/main/main.swift`.
    static func main(_ v: VerticalName) -> String {
        #"""
        // svc-\#(v.name): \#(v.typeName)'s daemon.
        import Glibc
        import IOInterface
        import \#(v.typeName)Service
        import VerticalsServiceKit

        let status = DaemonMain.run(\#(v.typeName).self) { runtime in
            let world = try World.live(runtime: runtime)
            return ServedVertical(Endpoint.routes(world: world))
        }
        exit(status)

        """#
    }
}
