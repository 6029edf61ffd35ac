import GRDB
import IOInterface
import Synchronization
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsStorage
import VerticalsTesting
@testable import IdentityService
@testable import VerticalsServiceKit

// Shared fixtures of identity's tests: a clock the test moves, Worlds, inputs, and a way to
// call the Endpoint's router in-process, through the same wire form a socket would carry.

/// A fixed "now": 2026-11-23T09:30:00Z, where ``TestClock`` starts.
let testNow = TestClock.start

extension Settings {
    /// Production's settings with libsodium's minimum Argon2id limits.
    static func fixture(
        sessionLifetime: Duration = .seconds(24 * 3600), passwordLimits: PasswordHasher.Limits = .minimum
    ) -> Settings {
        Settings(sessionLifetime: sessionLifetime, passwordLimits: passwordLimits)
    }
}

extension World {
    /// A test World over `clock`, with ``Settings/fixture(sessionLifetime:passwordLimits:)``.
    static func fixture(
        clock: TestClock = TestClock(), settings: Settings = .fixture(), database: (any DatabaseWriter)? = nil
    ) throws -> World {
        try World(
            parts: .test(
                migrator: Migrations.all, database: database, clock: clock, newID: RandomID.uuidString,
                calls: World.calls, label: "identity.test"),
            settings: settings)
    }
}

extension Identity.RegisterInput {
    static func fixture(
        email: String = "ada@example.org", password: String = "correct horse battery staple",
        displayName: String = "Ada Lovelace"
    ) -> Self {
        .init(email: email, password: password, displayName: displayName)
    }
}

extension Identity.FirstAdminInput {
    /// The first admin, with ``Identity/RegisterInput/fixture(email:password:displayName:)``'s password.
    static func fixture(email: String = "ada@example.org", displayName: String? = "Ada Lovelace") -> Self {
        .init(email: email, password: Identity.RegisterInput.fixture().password, displayName: displayName)
    }
}

extension Identity.LoginInput {
    static func fixture(email: String = "ada@example.org", password: String = "correct horse battery staple") -> Self {
        .init(email: email, password: password)
    }
}

extension Router {
    /// Serves one `operation` call in-process: encodes `input` as a request frame, runs the
    /// route, and decodes the response frame, as the host and a client would.
    /// `peer` is who the caller is by `SO_PEERCRED` (nil: unknown, as over a socketpair); whether
    /// it is the operator is what ``IdentityHost/access`` grants it, as the host would decide.
    func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, peer: PeerCredentials? = nil
    ) async throws -> Output {
        let isOperator =
            peer.map { IdentityHost.access.grant(peer: $0, peerName: nil, secure: false).isOperator } ?? false
        return try await serveInProcess(
            operation, input,
            context: RequestContext(
                operation: operation.fullName, correlationID: 1, peer: peer, callerIsOperator: isOperator))
    }
}

/// Identity's host as these tests deploy it: identity runs as uid 1000, the operator group is
/// gid 990, and clinics (a vertical of the suite) runs as uid 2001.
enum IdentityHost {
    /// Identity's own uid.
    static let ownUID: UInt32 = 1000
    /// The operator group.
    static let operatorGID: UInt32 = 990
    /// clinics' uid.
    static let clinicsUID: UInt32 = 2001

    /// Who the host admits, and as what (``VerticalsServiceKit/PeerAccess/grant(peer:peerName:secure:)``).
    static let access: PeerAccess = {
        var access = PeerAccess(ownUID: ownUID, allowedGIDs: [operatorGID])
        access.suiteServices = [clinicsUID: "clinics"]
        return access
    }()
}
