import GRDB
import IOInterface
import Synchronization
import Testing
import VerticalsContract
import VerticalsStorage
import VerticalsTesting
import VerticalsWire
@testable import NotificationsService
@testable import VerticalsServiceKit

// Shared fixtures of notifications' tests: a clock the test moves, a fake identity, Worlds,
// inputs, and a way to call the Endpoint's router in-process through the wire form.

/// A fixed "now": 2026-11-23T09:30:00Z, where ``TestClock`` starts.
let testNow = TestClock.start

/// Identity as notifications' tests need it: two users with a token each, and a switch
/// that makes every call fail the way an unreachable vertical does.
final class IdentityFake: Sendable {
    /// Token → user id.
    static let tokens = ["token-ada": "u-ada", "token-bob": "u-bob"]
    /// The users identity knows.
    static let users = ["u-ada": "Ada Lovelace", "u-bob": "Bob Hope"]

    /// When set, every call fails with this code (`unavailable`: identity is down).
    let failure = Mutex<ErrorCode?>(nil)

    /// A StubCaller that answers `identity.authenticate` and `identity.getUser` (nothing else).
    var caller: StubCaller {
        StubCaller()
            .on(Identity.authenticate) { input throws(ServiceError) in
                try self.failIfDown()
                guard let userID = Self.tokens[input.token] else {
                    throw ServiceError(.unauthenticated, "the session token is not valid: log in again")
                }
                return .init(
                    userID: userID, displayName: Self.users[userID]!, roles: [.patient],
                    expiresAt: testNow.adding(.seconds(86_400)))
            }
            .on(Identity.getUser) { input throws(ServiceError) in
                try self.failIfDown()
                guard let name = Self.users[input.userID] else {
                    throw ServiceError(.notFound, "no user has the id \"\(input.userID)\"")
                }
                return .init(userID: input.userID, displayName: name)
            }
    }

    private func failIfDown() throws(ServiceError) {
        if let code = failure.withLock({ $0 }) {
            throw ServiceError(code, "identity is not reachable at /tmp/x/identity.sock: connection refused")
        }
    }
}

/// A test World with its fake identity and clock.
struct Given {
    let clock = TestClock()
    let identity = IdentityFake()
    let world: World
    let router: Router

    init() throws {
        world = try World.test(clock: clock, caller: identity.caller)
        router = Endpoint.routes(world: world)
    }

    /// How many notifications the store holds.
    func storedCount() async throws -> Int {
        try await world.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM notifications") ?? 0 }
    }
}

extension World {
    /// A World for tests: an in-memory store (or `database`, shared with another World), `clock`,
    /// and `caller` (stubbing nothing by default: any call fails the test).
    static func test(
        clock: TestClock = TestClock(), caller: StubCaller = StubCaller(), database: (any DatabaseWriter)? = nil
    ) throws -> World {
        World(
            parts: try .test(
                migrator: Migrations.all, database: database, clock: clock, newID: RandomID.uuidString,
                caller: caller, calls: World.calls, label: "notifications.test"))
    }
}

extension Notifications.SendInput {
    static func fixture(
        userID: String = "u-ada", title: String = "Appointment booked",
        body: String = "Your GP appointment at Camden Health is on 23 Nov at 10:30.",
        deduplicationKey: String? = "appointments.booked:a_1"
    ) -> Self {
        .init(userID: userID, title: title, body: body, deduplicationKey: deduplicationKey)
    }
}

extension Router {
    /// Serves one `operation` call in-process: encodes `input` as a request frame, runs the
    /// route, and decodes the response frame, as the host and a client would.
    func call<Input, Output>(_ operation: Operation<Input, Output>, _ input: Input) async throws -> Output {
        try await serveInProcess(operation, input)
    }
}
