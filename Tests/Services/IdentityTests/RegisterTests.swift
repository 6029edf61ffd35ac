import GRDB
import IOInterface
import Testing
import VerticalsContract
import VerticalsStorage
import VerticalsTesting
@testable import IdentityService

@Suite("identity.register")
struct RegisterTests {
    @Test func register_givenValidInput_createsAPatientWithTheNormalizedEmail() async throws {
        let router = Endpoint.routes(world: try .fixture())

        let account = try await router.call(
            Identity.register, .fixture(email: "  Ada@Example.ORG ", displayName: "  Ada Lovelace "))

        #expect(account.email == "ada@example.org")
        #expect(account.displayName == "Ada Lovelace")
        #expect(account.roles == [.patient])
        #expect(account.createdAt == testNow)
        #expect(account.userID.count == 36, "a UUID: \(account.userID)")
    }

    @Test func register_whenTheEmailIsTaken_failsWithConflict() async throws {
        let router = Endpoint.routes(world: try .fixture())
        _ = try await router.call(Identity.register, .fixture())

        let error = await serviceError {
            try await router.call(Identity.register, .fixture(email: "ADA@example.org", displayName: "Another Ada"))
        }

        #expect(error?.code == .conflict)
        #expect(error?.detail("field") == "email")
    }

    @Test(
        "register refuses a field that breaks its rule, naming the field",
        arguments: [
            (Identity.RegisterInput.fixture(email: "not-an-address"), "email"),
            (.fixture(email: "ada@localhost"), "email"),
            (.fixture(email: "@example.org"), "email"),
            (.fixture(email: "ada@@example.org"), "email"),
            (.fixture(email: "ada lovelace@example.org"), "email"),
            (.fixture(email: "ada@example..org"), "email"),
            (.fixture(password: "123456789"), "password"),
            (.fixture(password: String(repeating: "p", count: 1025)), "password"),
            (.fixture(displayName: ""), "displayName"),
            (.fixture(displayName: " \t\n "), "displayName"),
            (.fixture(displayName: String(repeating: "x", count: 101)), "displayName"),
        ])
    func register_givenAnInvalidField_failsWithInvalidInputNamingIt(input: Identity.RegisterInput, field: String)
        async throws
    {
        let world = try World.fixture()

        let error = await serviceError { try await Endpoint.routes(world: world).call(Identity.register, input) }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == field)
        #expect(try await world.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM users") } == 0)
    }

    @Test func register_acceptsTheBoundaries() async throws {
        let router = Endpoint.routes(world: try .fixture())

        let account = try await router.call(
            Identity.register,
            .fixture(password: "0123456789", displayName: String(repeating: "é", count: 100)))

        #expect(account.displayName.count == 100)
    }

    @Test func register_givenTheOldBootstrapAddress_grantsPatientOnly() async throws {
        let router = Endpoint.routes(world: try .fixture())

        let account = try await router.call(Identity.register, .fixture(email: "admin@example.org"))

        #expect(account.roles == [.patient], "registration never grants admin, whatever the address")
    }

    @Test func register_storesAnArgon2idHashAndNeverThePassword() async throws {
        let world = try World.fixture()
        let input = Identity.RegisterInput.fixture()

        _ = try await Endpoint.routes(world: world).call(Identity.register, input)

        let hash = try #require(
            try await world.database.read { try String.fetchOne($0, sql: "SELECT password_hash FROM users") })
        #expect(hash.hasPrefix("$argon2id$v=19$m=8,t=1,p=1$"), "\(hash)")
        #expect(!hash.contains(input.password))
    }
}
