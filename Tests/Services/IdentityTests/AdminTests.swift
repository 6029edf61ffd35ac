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
    /// A caller with identity's own uid: the operator.
    static let operatorPeer = PeerCredentials(pid: 42, uid: IdentityHost.ownUID, gid: IdentityHost.ownUID)
    /// A member of the operator group, by its primary group: neither root nor identity's user.
    static let operatorGroupPeer = PeerCredentials(pid: 44, uid: 3000, gid: IdentityHost.operatorGID)
    /// A vertical's user (clinics), even with the operator group as its primary group.
    static let verticalPeer = PeerCredentials(pid: 43, uid: IdentityHost.clinicsUID, gid: IdentityHost.operatorGID)
    /// A caller the host does not know as anyone.
    static let strangerPeer = PeerCredentials(pid: 45, uid: 4000, gid: 4000)

    static func world() throws -> World {
        try World.fixture()
    }

    /// The router with a first admin created by the operator, and that admin's token.
    static func withAdmin() async throws -> (Router, String) {
        let router = Endpoint.routes(world: try world())
        _ = try await router.call(Identity.createAdmin, .fixture(), peer: operatorPeer)
        let session = try await router.call(Identity.login, .fixture())
        return (router, session.token)
    }

    /// Registers a patient with `email` on `router` and logs them in.
    static func patientSession(_ router: Router, email: String) async throws -> Identity.Session {
        _ = try await router.call(Identity.register, .fixture(email: email))
        return try await router.call(Identity.login, .fixture(email: email))
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

    /// The use case admits exactly whom the `operatorOnly` mark admits: root and the operator
    /// group too, not only identity's own user.
    @Test(arguments: [PeerCredentials(pid: 46, uid: 0, gid: 0), Self.operatorGroupPeer])
    func createAdmin_givenRootOrAnOperatorGroupMember_createsTheAdmin(peer: PeerCredentials) async throws {
        let router = Endpoint.routes(world: try Self.world())

        let account = try await router.call(Identity.createAdmin, .fixture(), peer: peer)

        #expect(account.roles == [.patient, .admin])
    }

    @Test(arguments: [Self.verticalPeer, Self.strangerPeer, nil])
    func createAdmin_givenACallerWhoIsNotTheOperator_isPermissionDenied(peer: PeerCredentials?) async throws {
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
        let grace = try await Self.patientSession(router, email: "grace@example.org")
        let before = try await router.call(Identity.authenticate, .init(token: grace.token))

        _ = try await router.call(Identity.grantRole, .init(token: token, email: "grace@example.org", role: .clinician))
        let granted = try await router.call(Identity.authenticate, .init(token: grace.token))
        _ = try await router.call(
            Identity.revokeRole, .init(token: token, email: "grace@example.org", role: .clinician))
        let revoked = try await router.call(Identity.authenticate, .init(token: grace.token))

        #expect(before.roles == [.patient])
        #expect(granted.roles == [.patient, .clinician])
        #expect(revoked.roles == [.patient])
    }

    @Test func grantRole_givenAPatientsToken_isPermissionDenied() async throws {
        let (router, _) = try await Self.withAdmin()
        let patient = try await Self.patientSession(router, email: "mallory@example.org")

        let error = await serviceError {
            try await router.call(
                Identity.grantRole, .init(token: patient.token, email: "mallory@example.org", role: .admin))
        }

        #expect(error?.code == .permissionDenied)
    }

    @Test func grantRole_givenAnUnknownAccountOrToken_failsTyped() async throws {
        let (router, token) = try await Self.withAdmin()

        let unknownEmail = await serviceError {
            try await router.call(
                Identity.grantRole, .init(token: token, email: "nobody@example.org", role: .clinician))
        }
        let badToken = await serviceError {
            try await router.call(Identity.grantRole, .init(token: "nope", email: "ada@example.org", role: .clinician))
        }
        let unknownRole = await serviceError {
            try await router.call(
                Identity.grantRole, .init(token: token, email: "ada@example.org", role: .unknown("god")))
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
