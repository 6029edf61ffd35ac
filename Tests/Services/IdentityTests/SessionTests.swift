import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsTesting
@testable import IdentityService

@Suite("identity.authenticate and identity.logout")
struct SessionTests {
    /// A registered admin with an open session, on a clock the test moves.
    struct Given {
        let clock = TestClock()
        let world: World
        let router: Router
        let account: Identity.Account
        let session: Identity.Session

        init() async throws {
            world = try World.fixture(clock: clock)
            router = Endpoint.routes(world: world)
            account = try await router.call(Identity.createAdmin, .fixture(), peer: AdminTests.operatorPeer)
            session = try await router.call(Identity.login, .fixture())
        }
    }

    @Test func authenticate_givenAFreshToken_returnsItsPrincipal() async throws {
        let given = try await Given()

        let principal = try await given.router.call(Identity.authenticate, .init(token: given.session.token))

        #expect(
            principal
                == Identity.Principal(
                    userID: given.account.userID, displayName: "Ada Lovelace", roles: [.patient, .admin],
                    expiresAt: given.session.expiresAt))
    }

    @Test func token_worksUntilLogout() async throws {
        let given = try await Given()
        let token = Identity.TokenInput(token: given.session.token)
        _ = try await given.router.call(Identity.authenticate, token)

        _ = try await given.router.call(Identity.logout, token)

        let error = await serviceError { try await given.router.call(Identity.authenticate, token) }
        #expect(error?.code == .unauthenticated)
        let revokedAt = try await given.world.database.read {
            try Int64.fetchOne($0, sql: "SELECT revoked_at FROM sessions")
        }
        #expect(revokedAt == testNow.microsecondsSinceEpoch)
    }

    @Test func token_worksUntilItExpires() async throws {
        let given = try await Given()
        let token = Identity.TokenInput(token: given.session.token)

        given.clock.advance(.seconds(24 * 3600) - .microseconds(1))
        _ = try await given.router.call(Identity.authenticate, token)
        given.clock.advance(.microseconds(1))

        let error = await serviceError { try await given.router.call(Identity.authenticate, token) }
        #expect(error?.code == .unauthenticated)
    }

    @Test func logout_endsOnlyTheSessionItNames() async throws {
        let given = try await Given()
        let other = try await given.router.call(Identity.login, .fixture())

        _ = try await given.router.call(Identity.logout, .init(token: given.session.token))

        _ = try await given.router.call(Identity.authenticate, .init(token: other.token))
    }

    @Test(
        "a token that does not work can neither authenticate nor log out",
        arguments: ["", "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", "not a token at all"])
    func unknownToken_isUnauthenticated(token: String) async throws {
        let given = try await Given()

        let authenticate = await serviceError {
            try await given.router.call(Identity.authenticate, .init(token: token))
        }
        let logout = await serviceError { try await given.router.call(Identity.logout, .init(token: token)) }

        #expect(authenticate?.code == .unauthenticated)
        #expect(logout?.code == .unauthenticated)
    }

    @Test func logout_twice_failsTheSecondTime() async throws {
        let given = try await Given()
        let token = Identity.TokenInput(token: given.session.token)
        _ = try await given.router.call(Identity.logout, token)

        let error = await serviceError { try await given.router.call(Identity.logout, token) }

        #expect(error?.code == .unauthenticated)
    }

    @Test func logout_ofAnExpiredToken_isUnauthenticated() async throws {
        let given = try await Given()
        given.clock.advance(.seconds(25 * 3600))

        let error = await serviceError {
            try await given.router.call(Identity.logout, .init(token: given.session.token))
        }

        #expect(error?.code == .unauthenticated)
    }

    @Test func login_dropsTheUsersSessionsThatNoLongerWork() async throws {
        let given = try await Given()
        _ = try await given.router.call(Identity.logout, .init(token: given.session.token))

        let fresh = try await given.router.call(Identity.login, .fixture())

        let hashes = try await given.world.database.read {
            try String.fetchAll($0, sql: "SELECT token_hash FROM sessions")
        }
        #expect(hashes == [SessionTokens.storedHash(of: fresh.token)])
    }
}
