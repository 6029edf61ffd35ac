import IOInterface
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsStorage
import VerticalsTesting
@testable import IdentityService

/// The first admin and role changes: who may, and when.
@Suite("identity.createAdmin, grantRole, revokeRole")
struct AdminTests {
    /// A caller with identity's own uid: a local operator.
    static let operatorPeer = PeerCredentials(pid: 42, uid: 1000, gid: 1000)
    /// A caller with another uid (another vertical under systemd).
    static let strangerPeer = PeerCredentials(pid: 43, uid: 2001, gid: 2001)

    static func world() throws -> World {
        var world = try World.fixture()
        world.operatorUIDs = [0, 1000]
        return world
    }

    /// The router with a first admin created by the operator, and that admin's token.
    static func withAdmin() async throws -> (Router, String) {
        let router = Endpoint.routes(world: try world())
        _ = try await router.call(Identity.createAdmin, .fixture(), peer: operatorPeer)
        let session = try await router.call(Identity.login, .fixture())
        return (router, session.token)
    }

    @Test func createAdmin_givenALocalOperatorOnAFreshSuite_createsAnAdminWhoCanLogIn() async throws {
        let router = Endpoint.routes(world: try Self.world())

        let account = try await router.call(Identity.createAdmin, .fixture(), peer: Self.operatorPeer)
        let session = try await router.call(Identity.login, .fixture())
        let principal = try await router.call(Identity.authenticate, .init(token: session.token))

        #expect(account.roles == [.patient, .admin])
        #expect(principal.roles.contains(.admin))
    }

    /// `svc-supervisor admin create ADDRESS` gives no name shown: identity takes the address's local part.
    @Test func createAdmin_withoutADisplayName_showsTheAddresssLocalPart() async throws {
        let router = Endpoint.routes(world: try Self.world())

        let account = try await router.call(
            Identity.createAdmin, .fixture(email: "ops@example.org", displayName: nil), peer: Self.operatorPeer)

        #expect(account.displayName == "ops")
    }

    @Test(arguments: [Self.strangerPeer, nil])
    func createAdmin_givenACallerWhoIsNotALocalOperator_isPermissionDenied(peer: PeerCredentials?) async throws {
        let router = Endpoint.routes(world: try Self.world())

        let error = await serviceError { try await router.call(Identity.createAdmin, .fixture(), peer: peer) }

        #expect(error?.code == .permissionDenied)
        let login = await serviceError { try await router.call(Identity.login, .fixture()) }
        #expect(login?.code == .unauthenticated, "no account was created")
    }

    @Test func createAdmin_whenAnAdminExists_isAConflictEvenForTheOperator() async throws {
        let (router, _) = try await Self.withAdmin()

        let error = await serviceError {
            try await router.call(Identity.createAdmin, .fixture(email: "eve@example.org"), peer: Self.operatorPeer)
        }

        #expect(error?.code == .conflict)
    }

    @Test func grantRole_givenAnAdminsToken_grantsAndRevokeTakesItBack() async throws {
        let (router, token) = try await Self.withAdmin()
        _ = try await router.call(Identity.register, .fixture(email: "grace@example.org"))

        let granted = try await router.call(
            Identity.grantRole, .init(token: token, email: "Grace@example.org", role: .admin))
        let revoked = try await router.call(
            Identity.revokeRole, .init(token: token, email: "grace@example.org", role: .admin))

        #expect(granted.roles == [.patient, .admin])
        #expect(revoked.roles == [.patient])
    }

    @Test func roleChanges_showInTheSessionsOfTheAccount_atOnce() async throws {
        let (router, token) = try await Self.withAdmin()
        _ = try await router.call(Identity.register, .fixture(email: "grace@example.org"))
        let grace = try await router.call(Identity.login, .fixture(email: "grace@example.org"))
        let before = try await router.call(Identity.authenticate, .init(token: grace.token))

        _ = try await router.call(Identity.grantRole, .init(token: token, email: "grace@example.org", role: .clinician))
        let granted = try await router.call(Identity.authenticate, .init(token: grace.token))
        _ = try await router.call(Identity.revokeRole, .init(token: token, email: "grace@example.org", role: .clinician))
        let revoked = try await router.call(Identity.authenticate, .init(token: grace.token))

        #expect(before.roles == [.patient])
        #expect(granted.roles == [.patient, .clinician])
        #expect(revoked.roles == [.patient])
    }

    @Test func grantRole_givenAPatientsToken_isPermissionDenied() async throws {
        let (router, _) = try await Self.withAdmin()
        _ = try await router.call(Identity.register, .fixture(email: "mallory@example.org"))
        let patient = try await router.call(Identity.login, .fixture(email: "mallory@example.org"))

        let error = await serviceError {
            try await router.call(
                Identity.grantRole, .init(token: patient.token, email: "mallory@example.org", role: .admin))
        }

        #expect(error?.code == .permissionDenied)
    }

    @Test func grantRole_givenAnUnknownAccountOrToken_failsTyped() async throws {
        let (router, token) = try await Self.withAdmin()

        let unknownEmail = await serviceError {
            try await router.call(Identity.grantRole, .init(token: token, email: "nobody@example.org", role: .clinician))
        }
        let badToken = await serviceError {
            try await router.call(Identity.grantRole, .init(token: "nope", email: "ada@example.org", role: .clinician))
        }
        let unknownRole = await serviceError {
            try await router.call(Identity.grantRole, .init(token: token, email: "ada@example.org", role: .unknown("god")))
        }

        #expect(unknownEmail?.code == .notFound)
        #expect(badToken?.code == .unauthenticated)
        #expect(unknownRole?.code == .invalidInput)
    }

    @Test func revokeRole_ofTheLastAdmin_isAConflict() async throws {
        let (router, token) = try await Self.withAdmin()

        let error = await serviceError {
            try await router.call(Identity.revokeRole, .init(token: token, email: "ada@example.org", role: .admin))
        }

        #expect(error?.code == .conflict)
        #expect(try await router.call(Identity.authenticate, .init(token: token)).roles.contains(.admin))
    }
}
