import GRDB
import IOInterface
import Testing
import VerticalsContract
import VerticalsStorage
import VerticalsTesting
@testable import IdentityService

@Suite("identity.login")
struct LogInTests {
    @Test func login_givenTheRightPassword_opensASessionForTheConfiguredLifetime() async throws {
        let router = Endpoint.routes(world: try .fixture(settings: .fixture(sessionLifetime: .seconds(2 * 3600))))
        let account = try await router.call(Identity.register, .fixture())

        let session = try await router.call(Identity.login, .fixture(email: " ADA@example.org"))

        #expect(session.userID == account.userID)
        #expect(session.expiresAt == testNow.adding(.seconds(2 * 3600)))
        #expect(session.token.count == 43, "32 bytes in base64url without padding")
        #expect(session.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func login_givesEachSessionItsOwnToken() async throws {
        let router = Endpoint.routes(world: try .fixture())
        _ = try await router.call(Identity.register, .fixture())

        let first = try await router.call(Identity.login, .fixture())
        let second = try await router.call(Identity.login, .fixture())

        #expect(first.token != second.token)
    }

    @Test func login_wrongPasswordAndUnknownEmail_failIdentically() async throws {
        let router = Endpoint.routes(world: try .fixture())
        _ = try await router.call(Identity.register, .fixture())

        let wrongPassword = await serviceError {
            try await router.call(Identity.login, .fixture(password: "not the password"))
        }
        let unknownEmail = await serviceError {
            try await router.call(Identity.login, .fixture(email: "nobody@example.org"))
        }
        let malformedEmail = await serviceError {
            try await router.call(Identity.login, .fixture(email: "nobody"))
        }

        #expect(wrongPassword?.code == .unauthenticated)
        #expect(wrongPassword == unknownEmail)
        #expect(wrongPassword == malformedEmail)
    }

    @Test func login_storesOnlyTheTokensHash() async throws {
        let world = try World.fixture()
        let router = Endpoint.routes(world: world)
        _ = try await router.call(Identity.register, .fixture())

        let session = try await router.call(Identity.login, .fixture())

        let rows = try world.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sessions")
        }
        #expect(rows.count == 1)
        let stored: String = try #require(rows.first?["token_hash"])
        #expect(stored == SessionTokens.storedHash(of: session.token))
        #expect(stored.count == 64, "SHA-256 in hex")
        let everything = rows.flatMap { row in row.databaseValues.map(\.description) }.joined(separator: " ")
        #expect(!everything.contains(session.token))
    }

    @Test func login_whenTheLimitsWereRaised_rehashesThePassword() async throws {
        let database = try SQLiteStore.inMemory(migrator: Migrations.all)
        let old = try World.fixture(database: database)
        _ = try await Endpoint.routes(world: old).call(Identity.register, .fixture())
        let stronger = PasswordHasher.Limits(operations: 2, memoryBytes: 16 * 1024)
        let new = try World.fixture(settings: .fixture(passwordLimits: stronger), database: database)

        _ = try await Endpoint.routes(world: new).call(Identity.login, .fixture())

        let hash = try #require(
            try await database.read { try String.fetchOne($0, sql: "SELECT password_hash FROM users") })
        #expect(hash.hasPrefix("$argon2id$v=19$m=16,t=2,p=1$"), "\(hash)")
        _ = try await Endpoint.routes(world: new).call(Identity.login, .fixture())
    }
}
