/// The unit tests of a new vertical: its example operation through its Endpoint, in-process,
/// over the wire form, with a World of fakes from VerticalsTesting.
enum TestTemplate {
    /// `Tests/Services/<Name>Tests/Fixtures.swift`: the test World.
    static func fixtures(_ v: VerticalName) -> String {
        #"""
        import VerticalsServiceKit
        import VerticalsStorage
        import VerticalsTesting

        @testable import \#(v.typeName)Service

        // Shared fixtures of the \#(v.name) tests: every parameter has a default.

        extension World {
            /// A World for unit tests: an in-memory store, the clock stopped at `clock`'s time, and
            /// `caller` answering only what the test stubs (any other call fails the test).
            static func test(clock: TestClock = TestClock(), caller: StubCaller = StubCaller()) throws -> World {
                World(
                    parts: try .test(
                        migrator: Migrations.all, clock: clock, newID: RandomID.uuidString, caller: caller,
                        calls: World.calls, label: "\#(v.name).test"))
            }
        }

        """#
    }

    /// `Tests/Services/<Name>Tests/HelloTests.swift`.
    static func hello(_ v: VerticalName, interface: String) -> String {
        #"""
        import \#(interface)
        import Testing
        import VerticalsContract
        import VerticalsServiceKit
        import VerticalsTesting
        import VerticalsWire

        @testable import \#(v.typeName)Service

        @Suite("\#(v.name).hello")
        struct HelloTests {
            @Test func hello_greetsByNameAndCountsEachGreeting() async throws {
                let router = Endpoint.routes(world: try World.test())

                let first = try await router.serveInProcess(\#(v.typeName).hello, .init(name: "Ada"))
                let second = try await router.serveInProcess(\#(v.typeName).hello, .init(name: " Ada "))
                let other = try await router.serveInProcess(\#(v.typeName).hello, .init(name: "Grace"))

                #expect(first == \#(v.typeName).Greeting(text: "Hello, Ada!", count: 1))
                #expect(second.count == 2)
                #expect(other.count == 1)
            }

            @Test(arguments: ["", "   ", String(repeating: "a", count: Greet.maxNameLength + 1)])
            func hello_withABadName_isInvalidInputNamingTheField(name: String) async throws {
                let router = Endpoint.routes(world: try World.test())
                let error = await #expect(throws: ServiceError.self) {
                    try await router.serveInProcess(\#(v.typeName).hello, .init(name: name))
                }
                #expect(error?.code == .invalidInput)
                #expect(error?.detail("field") == "name")
            }

            @Test func greet_withAnEmptyName_isRefused_asInvalidInputOnTheWire() async throws {
                let world = try World.test()
                let error = await wireError { _ = try await Greet(world: world).execute(name: "") }
                #expect(error?.code == .invalidInput)
                #expect(error?.detail("field") == "name")
            }
        }

        """#
    }

    /// `Tests/<Interface>Tests/Fixtures+<Name>.swift` (IOInterfaceTests here): a full and a minimal example of each of
    /// its messages, for the codec-against-schema checks every DTO goes through.
    static func examples(_ v: VerticalName, interface: String) -> String {
        #"""
        import \#(interface)

        // MARK: \#(v.typeName)

        extension \#(v.typeName).HelloInput {
            static func fixture(name: String = "Ada Lovelace") -> Self {
                .init(name: name)
            }

            static let minimal = Self(name: "")
        }

        extension \#(v.typeName).Greeting {
            static func fixture(text: String = "Hello, Ada Lovelace!", count: Int = 3) -> Self {
                .init(text: text, count: count)
            }

            static let minimal = Self(text: "", count: 0)
        }

        extension Fixtures {
            /// \#(v.typeName)'s examples.
            static let \#(v.name): [Example] = [
                pair(\#(v.typeName).HelloInput.fixture(), .minimal),
                pair(\#(v.typeName).Greeting.fixture(), .minimal),
            ].flatMap { $0 }
        }

        """#
    }
}
