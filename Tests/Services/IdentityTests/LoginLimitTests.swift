import IOInterface
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire
@testable import IdentityService

/// Failed logins are limited per account and per caller (``LoginThrottle``): past the limit a
/// login is refused `resourceExhausted`, saying when to retry, before its password is hashed;
/// the table of accounts and callers stays bounded whatever an attacker sprays.
@Suite("identity's failed-login limits")
struct LoginLimitTests {
    static let attacker = PeerCredentials(pid: 4242, uid: 1666, gid: 1666)
    static let neighbour = PeerCredentials(pid: 4343, uid: 1777, gid: 1777)

    /// A world with ada registered, on a clock the test moves.
    struct Given {
        let clock = TestClock()
        let world: World
        let router: Router

        init(limits: LoginThrottle.Limits = LoginThrottle.Limits()) async throws {
            world = try World.fixture(clock: clock, settings: Settings(passwordLimits: .minimum, loginAttempts: limits))
            router = Endpoint.routes(world: world)
            _ = try await router.call(Identity.register, .fixture())
        }

        /// The login's refusal; nil when it opened a session.
        func login(email: String = "ada@example.org", password: String, peer: PeerCredentials?) async -> ServiceError? {
            do {
                _ = try await router.call(Identity.login, .fixture(email: email, password: password), peer: peer)
                return nil
            } catch let error as ServiceError {
                return error
            } catch {
                Issue.record("login threw \(error), not a ServiceError")
                return nil
            }
        }
    }

    @Test func twentyWrongPasswordsInAMinute_areRefusedAfterTheFifth_sayingWhenToRetry() async throws {
        let given = try await Given()
        var codes: [ErrorCode] = []
        var refusal: ServiceError?
        for attempt in 0..<20 {
            given.clock.advance(.seconds(2))
            let error = try #require(await given.login(password: "guess number \(attempt)", peer: Self.attacker))
            codes.append(error.code)
            if error.code == .resourceExhausted { refusal = refusal ?? error }
        }
        #expect(Array(codes.prefix(5)) == Array(repeating: .unauthenticated, count: 5))
        // 5 a minute: over the 40 s that follow, at most one more guess each 12 s is let through.
        #expect(codes.filter { $0 == .unauthenticated }.count <= 5 + 40 / 12, "\(codes)")
        let first = try #require(refusal)
        #expect(first.retryable)
        let seconds = try #require(first.detail("retryAfterSeconds").flatMap { Int($0) })
        #expect((1...12).contains(seconds), "retry after \(seconds) s")
        // Even the right password is refused while the account is over its limit…
        #expect(
            await given.login(password: "correct horse battery staple", peer: Self.neighbour)?.code
                == .resourceExhausted)
        // …and works once the window has refilled it.
        given.clock.advance(.seconds(60))
        #expect(await given.login(password: "correct horse battery staple", peer: Self.neighbour) == nil)
    }

    @Test func oneCaller_sprayingAccounts_isHeldToItsOwnLimit_whileOthersLogIn() async throws {
        let given = try await Given()
        for index in 0..<5 {
            #expect(
                await given.login(email: "victim\(index)@example.org", password: "guess guess", peer: Self.attacker)?
                    .code
                    == .unauthenticated)
        }
        #expect(
            await given.login(email: "victim9@example.org", password: "guess guess", peer: Self.attacker)?.code
                == .resourceExhausted, "a sixth account from the same caller")
        #expect(
            await given.login(password: "correct horse battery staple", peer: Self.neighbour) == nil,
            "another caller, another account: unaffected")
    }

    @Test func aLoginThatWorks_costsNoAttempt() async throws {
        let given = try await Given()
        for _ in 0..<12 {
            #expect(await given.login(password: "correct horse battery staple", peer: Self.attacker) == nil)
        }
    }

    @Test func theTable_staysWithinItsBound_whateverIsSprayed() async throws {
        let given = try await Given(limits: LoginThrottle.Limits(failures: 5, window: .seconds(60), tracked: 100))
        for index in 0..<300 {
            let peer = PeerCredentials(pid: 1, uid: UInt32(10_000 + index), gid: 1)
            _ = await given.login(email: "sprayed\(index)@example.org", password: "guess guess", peer: peer)
        }
        #expect(given.world.loginThrottle.trackedCount <= 100)
    }

    @Test func throttle_refusesAtTheLimit_takesNothingWhenItRefuses_andRefills() async throws {
        let throttle = LoginThrottle(limits: LoginThrottle.Limits(failures: 2, window: .seconds(10)))
        let now = Timestamp(secondsSinceEpoch: 1_000)
        let ada = LoginThrottle.attempt(email: "Ada@Example.org ", caller: "uid 5")
        #expect(ada == .init(account: .account("ada@example.org"), caller: .caller("uid 5")))
        for _ in 0..<2 {
            try await throttle.begin(ada, at: now)
            throttle.failed(ada, at: now)
        }
        await #expect(throws: IdentityFailure.tooManyAttempts(retryAfterSeconds: 5)) {
            try await throttle.begin(ada, at: now)
        }
        // The caller is out of attempts too, for any account; another caller is not.
        let fromCaller = LoginThrottle.attempt(email: "grace@example.org", caller: "uid 5")
        await #expect(throws: IdentityFailure.self) { try await throttle.begin(fromCaller, at: now) }
        let elsewhere = LoginThrottle.attempt(email: "grace@example.org", caller: "uid 6")
        try await throttle.begin(elsewhere, at: now)
        throttle.ended(elsewhere, at: now)
        // Refilled one attempt: taken, given back by a login that works, taken again.
        let later = Timestamp(secondsSinceEpoch: 1_006)
        try await throttle.begin(ada, at: later)
        throttle.ended(ada, at: later)
        try await throttle.begin(ada, at: later)
    }

    @Test func manyLoginsAtOnce_throughOneCaller_areNotRefusedForBeingMany() async throws {
        let given = try await Given()
        for index in 0..<12 {
            _ = try await given.router.call(
                Identity.register, .fixture(email: "patient\(index)@example.org"), peer: Self.neighbour)
        }
        let refusals = await withTaskGroup(of: ServiceError?.self) { group in
            for index in 0..<12 {
                group.addTask {
                    await given.login(
                        email: "patient\(index)@example.org", password: "correct horse battery staple",
                        peer: Self.neighbour)
                }
            }
            return await group.reduce(into: [ServiceError]()) { if let error = $1 { $0.append(error) } }
        }
        #expect(refusals.isEmpty, "\(refusals)")
    }

    @Test func register_ofATakenAddress_costsTheCallerAnAttempt_notTheAccount() async throws {
        let given = try await Given()
        for _ in 0..<5 {
            #expect(
                await serviceError {
                    try await given.router.call(Identity.register, .fixture(), peer: Self.attacker)
                }?.code == .conflict)
        }
        let probe = await serviceError {
            try await given.router.call(Identity.register, .fixture(email: "grace@example.org"), peer: Self.attacker)
        }
        #expect(probe?.code == .resourceExhausted, "registering probes addresses no faster than logging in guesses")
        #expect(
            await given.login(password: "correct horse battery staple", peer: Self.neighbour) == nil,
            "ada's own allowance is untouched")
        #expect(
            try await given.router.call(Identity.register, .fixture(email: "grace@example.org"), peer: Self.neighbour)
                .email == "grace@example.org")
    }
}
