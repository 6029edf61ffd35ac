import GRDB
import IOInterface
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsStorage
import VerticalsTesting
import VerticalsWire
@testable import IdentityService

/// A session opens only if the password it was verified against is still the account's, in the
/// session's own transaction (a password generation, raised by every change and by logging out
/// everywhere): logins, re-hashes and password changes held in flight while another change
/// commits open nothing, and write nothing back, once it has returned.
@Suite("identity's sessions, against password changes in flight")
struct PasswordGenerationTests {
    static let old = "correct horse battery staple"
    static let new = "a new passphrase"

    /// ada registered and logged in once, served plainly by `router`; `held` serves the same
    /// store and limits, but holds its first `holding` password verifications once verified.
    struct Given {
        let world: World
        let router: Router
        let gate: HeldVerifications
        let held: Router
        let session: Identity.Session

        init(holding: Int, settings: Settings = .fixture(), database: (any DatabaseWriter)? = nil) async throws {
            world = try World.fixture(settings: settings, database: database)
            router = Endpoint.routes(world: world)
            if database == nil { _ = try await router.call(Identity.register, .fixture()) }
            session = try await router.call(Identity.login, .fixture())
            gate = HeldVerifications(holding: holding)
            var holdingWorld = world
            gate.install(in: &holdingWorld)
            held = Endpoint.routes(world: holdingWorld)
        }

        /// `count` logins with `password` through ``held``, each from its own caller.
        func logins(_ count: Int, password: String = PasswordGenerationTests.old) -> [Task<Identity.Session, any Error>]
        {
            (0..<count).map { index in
                Task { [held] in
                    try await held.call(
                        Identity.login, .fixture(password: password),
                        peer: PeerCredentials(pid: 1, uid: UInt32(5_000 + index), gid: 1))
                }
            }
        }

        func works(_ session: Identity.Session) async -> Bool {
            (try? await router.call(Identity.authenticate, .init(token: session.token))) != nil
        }

        func logsIn(_ password: String) async -> Bool {
            (try? await router.call(Identity.login, .fixture(password: password))) != nil
        }

        /// Each login's refusal, after asserting that none opened a session that works.
        func refusals(of logins: [Task<Identity.Session, any Error>]) async -> [ErrorCode] {
            var codes: [ErrorCode] = []
            for login in logins {
                switch await login.result {
                case .success(let session):
                    #expect(await !works(session), "a session verified against the old state works")
                case .failure(let error):
                    codes.append((error as? ServiceError)?.code ?? .internal)
                }
            }
            return codes
        }
    }

    @Test func loginsWithTheOldPassword_inFlightDuringChangePassword_openNoSessionThatWorksAfterIt() async throws {
        let given = try await Given(holding: 3)
        let logins = given.logins(3)
        #expect(await eventuallyAsync { given.gate.heldCount == 3 }, "three logins verified the old password")

        _ = try await given.router.call(
            Identity.changePassword, .init(token: given.session.token, oldPassword: Self.old, newPassword: Self.new))
        given.gate.release()

        #expect(await given.refusals(of: logins) == [.unauthenticated, .unauthenticated, .unauthenticated])
        #expect(await !given.logsIn(Self.old))
        #expect(await given.logsIn(Self.new))
    }

    @Test func loginsInFlightDuringLogoutEverywhere_openNoSessionThatWorksAfterIt() async throws {
        let given = try await Given(holding: 3)
        let logins = given.logins(3)
        #expect(await eventuallyAsync { given.gate.heldCount == 3 })

        _ = try await given.router.call(Identity.logoutEverywhere, .init(token: given.session.token))
        given.gate.release()

        #expect(await given.refusals(of: logins) == [.unauthenticated, .unauthenticated, .unauthenticated])
        #expect(await !given.works(given.session))
        #expect(await given.logsIn(Self.old), "a login that begins after it works")
    }

    @Test func aRehashInFlight_duringChangePassword_neverWritesTheOldPasswordBack() async throws {
        let database = try SQLiteStore.inMemory(migrator: Migrations.all)
        _ = try await Endpoint.routes(world: World.fixture(database: database)).call(Identity.register, .fixture())
        let stronger = PasswordHasher.Limits(operations: 2, memoryBytes: 16 * 1024)
        let given = try await Given(holding: 1, settings: .fixture(passwordLimits: stronger), database: database)
        // The first login re-hashed the hash of the weaker limits; make it weak again, as it was.
        let weak = try PasswordHasher(limits: .minimum).hash(Self.old)
        try await database.write { try $0.execute(sql: "UPDATE users SET password_hash = ?", arguments: [weak]) }
        let login = given.logins(1)
        #expect(
            await eventuallyAsync { given.gate.heldCount == 1 },
            "a login verified the old password and would re-hash it")

        _ = try await given.router.call(
            Identity.changePassword, .init(token: given.session.token, oldPassword: Self.old, newPassword: Self.new))
        given.gate.release()

        #expect(await given.refusals(of: login) == [.unauthenticated])
        #expect(await given.logsIn(Self.new), "the change stands")
        #expect(await !given.logsIn(Self.old))
    }

    @Test func twoChangePasswordsAtOnce_theSecondToCommit_isRefused_andNeverOverwritesTheFirst() async throws {
        let given = try await Given(holding: 1)
        let other = try await given.router.call(Identity.login, .fixture())
        let first = Task { [held = given.held] in
            try await held.call(
                Identity.changePassword,
                .init(token: other.token, oldPassword: Self.old, newPassword: "the first new one"))
        }
        #expect(await eventuallyAsync { given.gate.heldCount == 1 }, "the first change verified the old password")

        _ = try await given.router.call(
            Identity.changePassword, .init(token: given.session.token, oldPassword: Self.old, newPassword: Self.new))
        given.gate.release()

        let refusal = await serviceError { try await first.value }
        #expect(refusal?.code == .unauthenticated, "its session ended with the change that committed")
        #expect(await given.logsIn(Self.new))
        #expect(await !given.logsIn("the first new one"))
    }

    @Test func insert_afterTheGenerationChanged_storesNothing() async throws {
        let world = try World.fixture()
        let ada = try await RegisterUser(world: world).execute(
            email: "ada@example.org", password: Self.old, displayName: "Ada")
        let read = try #require(try await world.users.credentials(userID: ada.id))
        _ = try await world.sessions.revokeAll(userID: ada.id, at: world.now())

        let stored = try await world.sessions.insert(
            tokenHash: "late", userID: ada.id, generation: read.generation, createdAt: world.now(),
            expiresAt: world.now().adding(.seconds(60)))
        let rehashed = try await world.users.updatePasswordHash(of: read, to: "anything")

        #expect(!stored)
        #expect(!rehashed)
        #expect(try await world.sessions.session(tokenHash: "late") == nil)
    }
}
