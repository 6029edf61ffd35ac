import Glibc
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
@testable import VerticalsServiceKit
import VerticalsWire

/// Who may call which operation once admitted (``CallerGrant``): the operator anything, a
/// vertical of the suite only what its `depends_on` names, nobody but the operator an
/// operator-only operation. The live checks are in OperationRoutesSuiteTests.
struct OperationRoutesTests {
    /// identity as the reference suite's hosts set it up: clinics, records and appointments may
    /// call authenticate, notifications also getUser; uids 701… are the verticals, 900 the
    /// operator group, 500 identity itself.
    static func identityAccess(_ extra: [String: String] = [:]) -> PeerAccess {
        PeerAccess.from(
            environment: [
                "VERTICALS_ALLOWED_UIDS": "701,702,703,704",
                "VERTICALS_ALLOWED_GIDS": "900",
                "VERTICALS_SUITE_USERS": "identity:500,clinics:701,notifications:702,records:703,appointments:704",
                "VERTICALS_ALLOWED_OPERATIONS":
                    "clinics:authenticate,notifications:authenticate,notifications:getUser,records:authenticate,"
                    + "appointments:identity.authenticate",
            ].merging(extra) { $1 }, service: "identity", ownUID: 500)
    }

    static func peer(_ uid: UInt32, gid: UInt32? = nil) -> PeerCredentials {
        PeerCredentials(pid: 1, uid: uid, gid: gid ?? uid)
    }

    @Test func theEnvironment_namesEachCallersOperations_withinTheDaemon() {
        let access = Self.identityAccess()
        #expect(access.allowedOperations?["notifications"] == ["authenticate", "getUser"])
        #expect(access.allowedOperations?["appointments"] == ["authenticate"], "a full name is taken within the daemon")
        #expect(access.allowedOperations?["records"] == ["authenticate"])
        #expect(PeerAccess.from(environment: [:], service: "identity").allowedOperations == nil, "unset: no per-operation rule")
    }

    @Test func aVertical_mayCallOnlyItsOwnOperations_andTheLookingBuiltins() {
        let clinics = Self.identityAccess().grant(peer: Self.peer(701), peerName: nil, secure: false)
        #expect(!clinics.isOperator)
        #expect(clinics.vertical == "clinics")
        #expect(clinics.allows("authenticate", operatorOnly: false))
        #expect(!clinics.allows("getUser", operatorOnly: false), "a declared vertical's undeclared operation")
        #expect(!clinics.allows("grantRole", operatorOnly: true))
        #expect(clinics.allows("daemon.health", operatorOnly: false) && clinics.allows("daemon.describe", operatorOnly: false))
        #expect(!clinics.allows("daemon.metrics", operatorOnly: false))
    }

    /// A vertical whose primary group is the operator group is still that vertical.
    @Test func aVerticalsUID_isTheVertical_evenWithTheOperatorGroupAsItsPrimaryGroup() {
        let grant = Self.identityAccess().grant(peer: Self.peer(701, gid: 900), peerName: nil, secure: false)
        #expect(!grant.isOperator && grant.vertical == "clinics")
    }

    @Test func theOperator_mayCallEverything_operatorOnlyIncluded() {
        let access = Self.identityAccess()
        for peer in [Self.peer(0), Self.peer(500), Self.peer(1234, gid: 900)] {
            let grant = access.grant(peer: peer, peerName: nil, secure: false)
            #expect(grant.isOperator, "\(peer)")
            #expect(grant.allows("grantRole", operatorOnly: true) && grant.allows("getUser", operatorOnly: false))
        }
        let certificate = access.grant(peer: nil, peerName: "operator", secure: true)
        #expect(certificate.isOperator && certificate.caller == "verticals://operator")
        #expect(access.grant(peer: nil, peerName: "identity", secure: true).isOperator, "the daemon's own certificate")
    }

    @Test func overMutualTLS_aCertificatesVertical_getsItsOwnOperations() {
        let access = Self.identityAccess()
        let notifications = access.grant(peer: nil, peerName: "notifications", secure: true)
        #expect(!notifications.isOperator)
        #expect(notifications.allows("getUser", operatorOnly: false))
        #expect(!notifications.allows("register", operatorOnly: false))
        let stranger = access.grant(peer: nil, peerName: "lab-results", secure: true)
        #expect(!stranger.allows("authenticate", operatorOnly: false), "a name with no entry gets none")
        #expect(stranger.allows("daemon.health", operatorOnly: false))
    }

    /// A caller named whole (`caller:*`) may call every operation that is not operator-only.
    @Test func aWholeVertical_mayCallEveryOperation_butNoOperatorOnlyOne() {
        let access = Self.identityAccess(["VERTICALS_ALLOWED_OPERATIONS": "clinics:*"])
        let clinics = access.grant(peer: Self.peer(701), peerName: nil, secure: false)
        #expect(clinics.allows("getUser", operatorOnly: false))
        #expect(!clinics.allows("createAdmin", operatorOnly: true))
    }

    /// A uid admitted by a hand-written allow list (not a vertical) gets the entries under its uid
    /// or user name when there are any, else every operation that is not operator-only.
    @Test func aUIDAdmittedByHand_getsTheEntriesUnderItsUID_elseEveryOperationButTheOperatorsOnes() {
        let access = Self.identityAccess(["VERTICALS_ALLOWED_OPERATIONS": "clinics:authenticate,4242:getUser"])
        let grant = access.grant(peer: Self.peer(4242), peerName: nil, secure: false)
        #expect(grant.allows("getUser", operatorOnly: false))
        #expect(!grant.allows("authenticate", operatorOnly: false))
        let unnamed = access.grant(peer: Self.peer(4343), peerName: nil, secure: false)
        #expect(unnamed.allows("register", operatorOnly: false) && !unnamed.isOperator)
        #expect(!unnamed.allows("grantRole", operatorOnly: true))
    }

    /// Plain TCP names nobody: no per-caller rule applies, and an operator-only operation never.
    @Test func aCallerWithNoIdentity_isNeverTheOperator() {
        let grant = Self.identityAccess().grant(peer: nil, peerName: nil, secure: false)
        #expect(!grant.isOperator)
        #expect(grant.allows("register", operatorOnly: false))
        #expect(!grant.allows("grantRole", operatorOnly: true))
    }

    @Test func theRefusals_nameTheEdge_inTheirMessageAndDetails() {
        let route = RouteRefusal.undeclaredRoute(
            caller: "clinics", operation: "identity.getUser", service: "identity", declared: ["identity.authenticate"])
        #expect(route.code == .permissionDenied && route.retryable == false)
        #expect(route.message.hasPrefix("clinics may not call identity.getUser: its depends_on lacks it"), "\(route.message)")
        #expect(route.detail("edge") == "clinics → identity.getUser")
        #expect(route.detail("reason") == "undeclaredRoute")
        let marked = RouteRefusal.operatorOnly(caller: "clinics", operation: "identity.grantRole", service: "identity")
        #expect(marked.message.hasPrefix("clinics may not call identity.grantRole: it is operator-only"), "\(marked.message)")
        #expect(marked.detail("edge") == "clinics → identity.grantRole")
        #expect(marked.detail("reason") == "operatorOnly")
    }

    /// An operation declared operator-only carries the mark, and `describe` says so: the built-in
    /// backup and log level are, a test contract's echo is not.
    @Test func theOperatorOnlyOperations_areMarked_andDescribeSaysSo() {
        var marked: [String] = []
        for contract in FrameworkContracts.builtin {
            for operation in contract.operations where operation.marks.contains(.operatorOnly) {
                marked.append(operation.fullName)
            }
        }
        #expect(Set(marked) == ["daemon.backup", "daemon.setLogLevel"])
        let wipe = Operation<Empty, Empty>("echo", "wipe", summary: "Wipe the store.", marks: [.operatorOnly])
        let description = ServiceDescription.make(
            name: "echo", summary: "", operations: [TestEcho().echo.descriptor, wipe.descriptor])
        #expect(description.operations.first { $0.name == "wipe" }?.marks.contains("operatorOnly") == true)
        #expect(description.operations.first { $0.name == "echo" }?.marks.contains("operatorOnly") == false)
    }

    @Test func theAuditLine_namesACertificateCaller() {
        let line = AuditLine.text(
            service: "identity", operation: "identity.grantRole", peer: nil, callerName: "verticals://operator",
            outcome: "ok", certificate: "operator")
        #expect(line == "audit service=identity operation=identity.grantRole caller=verticals://operator caller_certificate=verticals://operator outcome=ok")
    }
}

/// A daemon told to let a caller call an operator-only operation, or one it does not serve,
/// warns at start-up naming both: the grant does nothing.
@Suite struct RouteProblemsTests {
    @Test func grantingAnOperatorOnlyOrUnknownOperation_isNamedAtStartUp() throws {
        var configuration = HostConfiguration.from(
            environment: ["VERTICALS_ALLOWED_OPERATIONS": "front:echo,front:wipe,front:nosuch,other:*"],
            name: "echo", pid: getpid())
        configuration.socketDirectory = SocketDirectory("/nonexistent")
        var router = Router(service: "echo")
        router.on(TestEcho().echo) { _, _ in throw ServiceError(.unimplemented, "") }
        router.on(Operation<Empty, Empty>("echo", "wipe", summary: "Wipe the store.", marks: [.operatorOnly])) { _, _ in
            throw ServiceError(.unimplemented, "")
        }
        let loop = try EventLoop(name: "route-problems")
        defer { loop.shutdown() }
        let host = ServiceHost(configuration: configuration, router: router, loop: loop)

        let problems = host.routeProblems()

        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("VERTICALS_ALLOWED_OPERATIONS grants front echo.wipe, which is operator-only: ignored") })
        #expect(problems.contains { $0.hasPrefix("VERTICALS_ALLOWED_OPERATIONS grants front echo.nosuch, which echo does not serve") })
    }
}
