import IOInterface
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire
@testable import IdentityService

/// One caller's requests sent at once are held to its limit (``LoginThrottle``): its logins and
/// registrations in flight count against its failures left, so a burst verifies no more
/// passwords, and probes no more addresses, than the limit; honest ones wait their turn.
@Suite("identity's limits, against concurrent requests of one caller")
struct ConcurrentLoginLimitTests {
    static let attacker = PeerCredentials(pid: 4242, uid: 1666, gid: 1666)
    static let neighbour = PeerCredentials(pid: 4343, uid: 1777, gid: 1777)
    static let password = "correct horse battery staple"

    /// A World on a stopped clock (5 failures a minute), whose verifications `gate` counts and
    /// holds (the first `holding` of them).
    struct Given {
        let gate: HeldVerifications
        let world: World
        let router: Router

        init(holding: Int = 0) throws {
            gate = HeldVerifications(holding: holding)
            var world = try World.fixture()
            gate.install(in: &world)
            self.world = world
            router = Endpoint.routes(world: world)
        }

        /// Each call's error code (nil when it worked), `count` of them at once.
        func atOnce(_ count: Int, _ call: @escaping @Sendable (Int) async throws -> Void) async -> [ErrorCode?] {
            await withTaskGroup(of: ErrorCode?.self) { group in
                for index in 0..<count {
                    group.addTask {
                        do {
                            try await call(index)
                            return nil
                        } catch {
                            return (error as? ServiceError)?.code ?? .internal
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    @Test func sixtyWrongPasswordsAtOnce_fromOneCaller_verifyOnlyTheLimit_theRestWaitAndAreRefused() async throws {
        let given = try Given(holding: 5)
        _ = try await given.router.call(Identity.register, .fixture(), peer: Self.neighbour)
        let router = given.router
        async let codes = given.atOnce(60) { index in
            let email = index == 0 ? "ada@example.org" : "victim\(index)@example.org"
            _ = try await router.call(
                Identity.login, .fixture(email: email, password: "guess \(index)"), peer: Self.attacker)
        }
        #expect(
            await eventuallyAsync { given.gate.heldCount == 5 && given.world.loginThrottle.waitingCount == 55 },
            "five verify; fifty-five wait, refused by nothing yet")
        #expect(given.gate.verified == 5)

        given.gate.release()

        let answered = await codes
        #expect(given.gate.verified == 5, "no more passwords verified than the limit")
        #expect(answered.filter { $0 == .unauthenticated }.count == 5)
        #expect(answered.filter { $0 == .resourceExhausted }.count == 55, "\(answered)")
    }

    @Test func honestLoginsAtOnce_throughOneCaller_wait_andAllOpenASession() async throws {
        let given = try Given(holding: 5)
        for index in 0..<12 {
            _ = try await given.router.call(Identity.register, .fixture(email: "patient\(index)@example.org"))
        }
        let router = given.router
        async let codes = given.atOnce(12) { index in
            _ = try await router.call(
                Identity.login, .fixture(email: "patient\(index)@example.org", password: Self.password),
                peer: Self.neighbour)
        }
        #expect(await eventuallyAsync { given.gate.heldCount == 5 && given.world.loginThrottle.waitingCount == 7 })

        given.gate.release()

        #expect(await codes == Array(repeating: nil, count: 12), "delayed, never refused")
        #expect(given.gate.peak <= 5)
        #expect(given.gate.verified == 12)
    }

    @Test func sixtyRegistrationsOfTakenAddressesAtOnce_fromOneCaller_probeOnlyTheLimit() async throws {
        let given = try Given()
        for index in 0..<10 {
            _ = try await given.router.call(Identity.register, .fixture(email: "member\(index)@example.org"))
        }
        let router = given.router
        let codes = await given.atOnce(60) { index in
            _ = try await router.call(
                Identity.register, .fixture(email: "member\(index % 10)@example.org"), peer: Self.attacker)
        }
        #expect(codes.filter { $0 == .conflict }.count == 5, "\(codes)")
        #expect(codes.filter { $0 == .resourceExhausted }.count == 55)
    }

    @Test func honestRegistrationsAtOnce_throughOneCaller_allMakeTheirAccount() async throws {
        let given = try Given()
        let router = given.router
        let codes = await given.atOnce(12) { index in
            _ = try await router.call(
                Identity.register, .fixture(email: "new\(index)@example.org"), peer: Self.neighbour)
        }
        #expect(codes == Array(repeating: nil, count: 12))
    }
}
