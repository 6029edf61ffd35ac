/// The `Services/<Name>/` files of a new vertical: Domain, Data, Endpoint, its World and
/// `main.swift`, shaped like the reference suite's verticals.
enum ServiceTemplate {
    /// `Services/<Name>/Sources/World.swift`.
    static func world(_ v: VerticalName, calls: [VerticalName], interface: String) -> String {
        let imports = calls.isEmpty ? "" : "import \(interface)\n"
        let callees = calls.isEmpty ? ".none" : "Callees(" + calls.map { "\($0.typeName).self" }.joined(separator: ", ") + ")"
        let peers = calls.isEmpty
            ? "None yet; add the service to `depends_on` in deploy/suite.toml when it starts calling one."
            : calls.map(\.name).joined(separator: ", ")
                + " (its `depends_on` in deploy/suite.toml), e.g.\n/// `try await caller.call(\(calls[0].typeName).<operation>, …)`."
        return #"""
            \#(imports)import VerticalsClient
            import VerticalsServiceKit
            import VerticalsStorage

            /// Everything \#(v.name)'s use cases depend on, built once: in `main.swift` by
            /// ``live(runtime:)``, in tests from test ``WorldParts``. Use cases reach nothing else.
            ///
            /// The clock, ids (random UUIDs), store, caller and logger are its ``parts``; the rest is
            /// \#(v.name)'s own. Calls: \#(peers)
            package struct World: VerticalWorld {
                /// What \#(v.name) calls: its caller refuses any other, and its daemon warns when its
                /// `depends_on` in deploy/suite.toml differs. A whole vertical (`Callees(Payments.self)`,
                /// `depends_on = ["payments"]`) is every operation of it that is not operator-only; name
                /// the operations, here and in `depends_on`, once it calls them
                /// (`Callees(Payments.charge)`, `depends_on = ["payments.charge"]`).
                package static let calls: Callees = \#(callees)
                /// The clock, ids, store, caller and logger.
                package var parts: WorldParts
                // (Built by `live(runtime:)`, or by tests through the memberwise `init(parts:)`.)

                /// Greetings in the store.
                package var greetings: GreetingRepository { GreetingRepository(database: database) }

                /// The daemon's World: the common parts (``WorldParts/live(runtime:migrator:newID:calls:)``:
                /// `\#(v.name).sqlite` under the state directory, the system clock, the runtime's client).
                package static func live(runtime: ServiceRuntime) throws -> World {
                    World(parts: try .live(runtime: runtime, migrator: Migrations.all, newID: RandomID.uuidString, calls: calls))
                }
            }

            """#
    }

    /// `Services/<Name>/Sources/Domain/Models/<Name>Failure.swift`.
    static func failure(_ v: VerticalName) -> String {
        #"""
        /// Why a \#(v.name) use case refused: the domain's reasons, each with its wire form in
        /// `Endpoint/\#(v.typeName)Failure+ServiceError.swift`. (Errors of other verticals arrive as
        /// `ServiceError`s and pass through.)
        package enum \#(v.typeName)Failure: Error, Equatable, Sendable {
            /// A field broke a rule the caller can fix.
            case invalid(field: String, reason: String)
        }

        """#
    }

    /// `Services/<Name>/Sources/Domain/Models/Greeting.swift`.
    static func model(_ v: VerticalName) -> String {
        #"""
        /// A greeting as \#(v.name)'s domain sees it.
        package struct Greeting: Equatable, Sendable {
            /// Who was greeted.
            package var name: String
            /// How many times, this time included.
            package var count: Int

            /// Creates a greeting.
            package init(name: String, count: Int) {
                self.name = name
                self.count = count
            }

            /// The words of the greeting.
            package var text: String { "Hello, \(name)!" }
        }

        """#
    }

    /// `Services/<Name>/Sources/Domain/UseCases/Greet.swift`.
    static func useCase(_ v: VerticalName) -> String {
        #"""
        /// Greets someone and counts the greeting in \#(v.name)'s store: the example use case.
        package struct Greet: Sendable {
            let world: World

            /// The longest name accepted.
            package static let maxNameLength = 100

            /// A use case over `world`.
            package init(world: World) {
                self.world = world
            }

            /// The greeting for `name`, counted.
            package func execute(name: String) async throws -> Greeting {
                let trimmed = name.trimmingWhitespace()
                guard !trimmed.isEmpty else {
                    throw \#(v.typeName)Failure.invalid(field: "name", reason: "the name is empty")
                }
                guard trimmed.count <= Self.maxNameLength else {
                    throw \#(v.typeName)Failure.invalid(field: "name", reason: "the name is longer than \(Self.maxNameLength) characters")
                }
                let count = try await world.greetings.count(name: trimmed, at: world.now())
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
        import GRDB

        /// \#(v.typeName)'s store schema, one versioned migration at a time. Run at start-up by
        /// `SQLiteStore.open`; a migration, once shipped, never changes: add the next one instead.
        package enum Migrations {
            /// Every migration, in order.
            package static var all: DatabaseMigrator {
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
        import GRDB
        import VerticalsWire

        /// Greeting counts in \#(v.name)'s own SQLite store.
        package struct GreetingRepository: Sendable {
            private let database: any DatabaseWriter

            /// A repository over `database`.
            package init(database: any DatabaseWriter) {
                self.database = database
            }

            /// Counts one more greeting of `name` at `time`, in one transaction, and returns the new count.
            package func count(name: String, at time: Timestamp) async throws -> Int {
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
    static func endpoint(_ v: VerticalName, interface: String) -> String {
        #"""
        import \#(interface)
        import VerticalsContract
        import VerticalsServiceKit

        /// \#(v.typeName)'s routes: each operation of the ``\#(v.typeName)`` contract to its use case, the
        /// result to the contract's Output (a ``\#(v.typeName)Failure`` reaches the caller as its
        /// ``\#(v.typeName)Failure/serviceError``, by the Router).
        package enum Endpoint {
            /// The router `svc-\#(v.name)` serves.
            package static func routes(world: World) -> Router {
                var router = Router(service: \#(v.typeName).self)
                router.on(\#(v.typeName).hello) { input, _ in
                    let greeting = try await Greet(world: world).execute(name: input.name)
                    return \#(v.typeName).Greeting(text: greeting.text, count: greeting.count)
                }
                return router
            }
        }

        """#
    }

    /// `Services/<Name>/Sources/Endpoint/<Name>Failure+ServiceError.swift`.
    static func serviceError(_ v: VerticalName) -> String {
        #"""
        import VerticalsServiceKit
        import VerticalsWire

        /// The wire form of \#(v.name)'s refusals: a code to branch on, a message for a person.
        extension \#(v.typeName)Failure: ServiceErrorConvertible {
            /// The `ServiceError` a caller sees for this refusal.
            package var serviceError: ServiceError {
                switch self {
                case .invalid(let field, let reason):
                    ServiceError(.invalidInput, "\(reason); correct \(field) and try again", details: [ErrorDetail("field", field)])
                }
            }
        }

        """#
    }

    /// `Services/<Name>/main/main.swift`.
    static func main(_ v: VerticalName, interface: String) -> String {
        let imports = ["Glibc", interface, "\(v.typeName)Service", "VerticalsServiceKit"].sorted()
            .map { "import \($0)" }.joined(separator: "\n")
        return #"""
        // svc-\#(v.name): \#(v.typeName)'s daemon.
        \#(imports)

        let status = DaemonMain.run(\#(v.typeName).self, calls: World.calls) { runtime in
            let world = try World.live(runtime: runtime)
            return ServedVertical(Endpoint.routes(world: world), store: world.database)
        }
        exit(status)

        """#
    }
}
