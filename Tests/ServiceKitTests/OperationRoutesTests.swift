import Glibc
import VerticalsClient
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
    /// A `ledger` vertical as a suite's hosts set it up: catalog, archive and orders may
    /// call balance, mailer also statement; uids 701… are the verticals, 900 the
    /// operator group, 500 the ledger itself.
    static func ledgerAccess(_ extra: [String: String] = [:]) -> PeerAccess {
        PeerAccess.from(
            environment: [
                "VERTICALS_ALLOWED_UIDS": "701,702,703,704",
                "VERTICALS_ALLOWED_GIDS": "900",
                "VERTICALS_SUITE_USERS": "ledger:500,catalog:701,mailer:702,archive:703,orders:704",
                "VERTICALS_ALLOWED_OPERATIONS":
                    "catalog:balance,mailer:balance,mailer:statement,archive:balance,"
                    + "orders:ledger.balance",
            ].merging(extra) { $1 }, service: "ledger", ownUID: 500)
    }

    static func peer(_ uid: UInt32, gid: UInt32? = nil) -> PeerCredentials {
        PeerCredentials(pid: 1, uid: uid, gid: gid ?? uid)
    }

    @Test func theEnvironment_namesEachCallersOperations_withinTheDaemon() {
        let access = Self.ledgerAccess()
        #expect(access.allowedOperations?["mailer"] == ["balance", "statement"])
        #expect(access.allowedOperations?["orders"] == ["balance"], "a full name is taken within the daemon")
        #expect(access.allowedOperations?["archive"] == ["balance"])
        #expect(
            PeerAccess.from(environment: [:], service: "ledger").allowedOperations == nil,
            "unset: no per-operation rule")
    }

    @Test func aVertical_mayCallOnlyItsOwnOperations_andTheLookingBuiltins() {
        let catalog = Self.ledgerAccess().grant(peer: Self.peer(701), peerName: nil, secure: false)
        #expect(!catalog.isOperator)
        #expect(catalog.vertical == "catalog")
        #expect(catalog.allows("balance", operatorOnly: false))
        #expect(!catalog.allows("statement", operatorOnly: false), "a declared vertical's undeclared operation")
        #expect(!catalog.allows("closeBooks", operatorOnly: true))
        #expect(
            catalog.allows("daemon.health", operatorOnly: false)
                && catalog.allows("daemon.describe", operatorOnly: false))
        #expect(!catalog.allows("daemon.metrics", operatorOnly: false))
    }

    /// A vertical whose primary group is the operator group is still that vertical.
    @Test func aVerticalsUID_isTheVertical_evenWithTheOperatorGroupAsItsPrimaryGroup() {
        let grant = Self.ledgerAccess().grant(peer: Self.peer(701, gid: 900), peerName: nil, secure: false)
        #expect(!grant.isOperator && grant.vertical == "catalog")
    }

    @Test func theOperator_mayCallEverything_operatorOnlyIncluded() {
        let access = Self.ledgerAccess()
        for peer in [Self.peer(0), Self.peer(500), Self.peer(1234, gid: 900)] {
            let grant = access.grant(peer: peer, peerName: nil, secure: false)
            #expect(grant.isOperator, "\(peer)")
            #expect(grant.allows("closeBooks", operatorOnly: true) && grant.allows("statement", operatorOnly: false))
        }
        let certificate = access.grant(peer: nil, peerName: "operator", secure: true)
        #expect(certificate.isOperator && certificate.caller == "verticals://operator")
        #expect(access.grant(peer: nil, peerName: "ledger", secure: true).isOperator, "the daemon's own certificate")
    }

    @Test func overMutualTLS_aCertificatesVertical_getsItsOwnOperations() {
        let access = Self.ledgerAccess()
        let mailer = access.grant(peer: nil, peerName: "mailer", secure: true)
        #expect(!mailer.isOperator)
        #expect(mailer.allows("statement", operatorOnly: false))
        #expect(!mailer.allows("openAccount", operatorOnly: false))
        let stranger = access.grant(peer: nil, peerName: "lab-results", secure: true)
        #expect(!stranger.allows("balance", operatorOnly: false), "a name with no entry gets none")
        #expect(stranger.allows("daemon.health", operatorOnly: false))
    }

    /// A caller named whole (`caller:*`) may call every operation that is not operator-only.
    @Test func aWholeVertical_mayCallEveryOperation_butNoOperatorOnlyOne() {
        let access = Self.ledgerAccess(["VERTICALS_ALLOWED_OPERATIONS": "catalog:*"])
        let catalog = access.grant(peer: Self.peer(701), peerName: nil, secure: false)
        #expect(catalog.allows("statement", operatorOnly: false))
        #expect(!catalog.allows("openBooks", operatorOnly: true))
    }

    /// A uid admitted by a hand-written allow list (not a vertical) gets the entries under its uid
    /// or user name when there are any, else every operation that is not operator-only.
    @Test func aUIDAdmittedByHand_getsTheEntriesUnderItsUID_elseEveryOperationButTheOperatorsOnes() {
        let access = Self.ledgerAccess(["VERTICALS_ALLOWED_OPERATIONS": "catalog:balance,4242:statement"])
        let grant = access.grant(peer: Self.peer(4242), peerName: nil, secure: false)
        #expect(grant.allows("statement", operatorOnly: false))
        #expect(!grant.allows("balance", operatorOnly: false))
        let unnamed = access.grant(peer: Self.peer(4343), peerName: nil, secure: false)
        #expect(unnamed.allows("openAccount", operatorOnly: false) && !unnamed.isOperator)
        #expect(!unnamed.allows("closeBooks", operatorOnly: true))
    }

    /// Plain TCP names nobody: no per-caller rule applies, and an operator-only operation never.
    @Test func aCallerWithNoIdentity_isNeverTheOperator() {
        let grant = Self.ledgerAccess().grant(peer: nil, peerName: nil, secure: false)
        #expect(!grant.isOperator)
        #expect(grant.allows("openAccount", operatorOnly: false))
        #expect(!grant.allows("closeBooks", operatorOnly: true))
    }

    @Test func theRefusals_nameTheEdge_inTheirMessageAndDetails() {
        let route = RouteRefusal.undeclaredRoute(
            caller: "catalog", operation: "ledger.statement", service: "ledger", declared: ["ledger.balance"])
        #expect(route.code == .permissionDenied && route.retryable == false)
        #expect(
            route.message.hasPrefix("catalog may not call ledger.statement: its depends_on lacks it"),
            "\(route.message)")
        #expect(route.detail("edge") == "catalog → ledger.statement")
        #expect(route.detail("reason") == "undeclaredRoute")
        let marked = RouteRefusal.operatorOnly(caller: "catalog", operation: "ledger.closeBooks", service: "ledger")
        #expect(
            marked.message.hasPrefix("catalog may not call ledger.closeBooks: it is operator-only"), "\(marked.message)"
        )
        #expect(marked.detail("edge") == "catalog → ledger.closeBooks")
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
            service: "ledger", operation: "ledger.closeBooks", peer: nil, callerName: "verticals://operator",
            outcome: "ok", certificate: "operator")
        #expect(
            line
                == "audit service=ledger operation=ledger.closeBooks caller=verticals://operator caller_certificate=verticals://operator outcome=ok"
        )
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
        #expect(
            problems.contains {
                $0.hasPrefix("VERTICALS_ALLOWED_OPERATIONS grants front echo.wipe, which is operator-only: ignored")
            })
        #expect(
            problems.contains {
                $0.hasPrefix("VERTICALS_ALLOWED_OPERATIONS grants front echo.nosuch, which echo does not serve")
            })
    }
}
