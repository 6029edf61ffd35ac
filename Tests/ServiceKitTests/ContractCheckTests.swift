import Synchronization
@testable import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
@testable import VerticalsServiceKit
import VerticalsWire

/// A caller learns on each new connection whether its callee serves what it was compiled
/// against (`daemon.contractCheck`, ``CalleeContracts``), over real sockets: the same build
/// costs a fingerprint, a compatible one goes through, an incompatible one is refused at once for
/// the operations it touches and for no other, and a callee that cannot say is called as before.
struct ContractCheckTests {
    let echo = TestEcho(service: "echo")

    /// How many requests a handler ran.
    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// A router of `echo` serving `echo` as given and `fail` as vt-testd does; `served` counts the
    /// requests its `echo` handler ran.
    static func router(
        echo: (inout Router, Count) -> Void, served: Count, olderBuild: Bool = false
    ) -> Router {
        var router = Router(service: "echo")
        echo(&router, served)
        router.on(TestEcho(service: "echo").fail) { input, _ in throw ServiceError(input.code, input.message) }
        if olderBuild {
            // A build from before the check answers it as any unknown operation.
            router.on(Daemon.contractCheck) { _, _ in
                throw ServiceError(.unimplemented, "echo does not serve daemon.contractCheck")
            }
        }
        return router
    }

    /// ``router(echo:served:olderBuild:)`` of this build's `echo`, hosted on a loop named `loopName`.
    static func hostedEcho(_ loopName: String) async throws -> HostedRouter {
        try await HostedRouter(router(echo: sameEcho, served: Count()), loopName: loopName)
    }

    /// `daemon.contractCheck` asked of `echo` directly, as a client in another language would.
    static func check(
        _ hosted: HostedRouter, _ operations: [String], fingerprint: String
    ) async throws -> Daemon.ContractCheck {
        let body = try await hosted.client.callRaw(
            service: "echo", operation: Daemon.contractCheck.fullName,
            body: Daemon.ContractCheckInput(operations: operations, fingerprint: fingerprint).encodedBody())
        return try Daemon.ContractCheck(decoding: body)
    }

    /// `echo` as this build links it.
    static func sameEcho(_ router: inout Router, _ served: Count) {
        router.on(TestEcho(service: "echo").echo) { input, _ in
            served.value.add(1, ordering: .relaxed)
            return TestEcho.EchoOutput(text: input.text, servedBy: 1)
        }
    }

    /// `echo` as the later build serves it.
    static func louderEcho(_ router: inout Router, _ served: Count) {
        let operation = Operation<TestEcho.EchoInputBreaking, TestEcho.EchoOutput>(
            "echo", "echo", summary: "Echo the text, optionally after a delay.")
        router.on(operation) { input, _ in
            served.value.add(1, ordering: .relaxed)
            return TestEcho.EchoOutput(text: input.text, servedBy: input.volume)
        }
    }

    /// A client on the hosted router's client loop that asks as a caller built against `echo`'s
    /// `echo` and `fail`.
    func client(of hosted: HostedRouter) -> (ServiceClient, CalleeContracts) {
        let contracts = CalleeContracts(caller: "front", callees: Callees(echo.echo, echo.fail))
        let client = ServiceClient(
            loop: hosted.clientLoop, sockets: SocketDirectory(hosted.directory.path), contracts: contracts)
        return (client, contracts)
    }

    @Test func theSameBuild_costsAFingerprint_andEveryCallGoesThrough() async throws {
        let served = Count()
        let hosted = try await HostedRouter(Self.router(echo: Self.sameEcho, served: served), loopName: "check-same")
        let (client, contracts) = client(of: hosted)
        let answer = try await client.call(echo.echo, .init(text: "hi"))
        #expect(answer.text == "hi")
        let found = try #require(contracts.found["echo"])
        #expect(found.state == .compatible)
        #expect(found.serves == found.builtAgainst, "the callee's fingerprint is the caller's")
        #expect(found.findings.isEmpty && found.refused.isEmpty)
        #expect(found.version == VerticalsVersion.current)

        // The exchange itself: the matching fingerprint gets no description back, another one does.
        let expected = ContractFingerprint.of(
            ContractFingerprint.description(of: "echo", [echo.fail.descriptor, echo.echo.descriptor]))
        #expect(expected == found.builtAgainst, "the declaration order does not change the fingerprint")
        let names = ["echo.echo", "echo.fail"]
        let same = try await Self.check(hosted, names, fingerprint: expected)
        #expect(same.fingerprint == expected && same.description == nil)
        let other = try await Self.check(hosted, names, fingerprint: "sha256:00")
        #expect(other.fingerprint == expected)
        #expect(other.description?.operations.map(\.name) == ["echo", "fail"])
        client.close()
        await hosted.close()
    }

    @Test func anIncompatibleBuild_refusesTheOperationsItTouches_atOnce_andNoOther() async throws {
        let served = Count()
        let hosted = try await HostedRouter(
            Self.router(echo: Self.louderEcho, served: served), loopName: "check-breaking")
        let (client, contracts) = client(of: hosted)
        let refused = await #expect(throws: ServiceError.self) { try await client.call(echo.echo, .init(text: "hi")) }
        #expect(refused?.code == .unimplemented)
        let details = Dictionary(
            refused?.details.map { ($0.key, $0.value) } ?? [], uniquingKeysWith: { first, _ in first })
        #expect(details["incompatibleContract"] == ContractPair.Difference.requiredFieldOnlyReaderHas.rawValue)
        #expect(details["operation"] == "echo.echo")
        #expect(details["field"]?.contains("volume") == true, "names the field: \(details)")
        let found = try #require(contracts.found["echo"])
        #expect(found.state == .incompatible)
        #expect(found.serves != found.builtAgainst)
        #expect(refused?.message.contains(ContractFingerprint.short(found.builtAgainst)) == true)
        #expect(refused?.message.contains(ContractFingerprint.short(found.serves)) == true)
        #expect(served.value.load(ordering: .relaxed) == 0, "no request of the refused operation reached the callee")

        // An operation the change does not touch still goes through, on the same connection.
        let failed = await #expect(throws: ServiceError.self) {
            try await client.call(echo.fail, .init(code: .conflict, message: "as asked"))
        }
        #expect(failed?.code == .conflict && failed?.message == "as asked")
        // And the refusal holds for later calls without asking again.
        let again = await #expect(throws: ServiceError.self) { try await client.call(echo.echo, .init(text: "hi")) }
        #expect(again?.code == .unimplemented)
        #expect(served.value.load(ordering: .relaxed) == 0)

        // What the caller's daemon.health and daemon.metrics say.
        let health = contracts.health
        #expect(health.map(\.service) == ["echo"])
        #expect(health.first?.state == "incompatible")
        #expect(health.first?.refused == ["echo.echo"])
        #expect(health.first?.findings.contains { $0.contains("volume") } == true)
        #expect(contracts.exposition.contains("verticals_callee_contract_refused_operations{callee=\"echo\"} 1"))
        client.close()
        await hosted.close()
    }

    @Test func aCalleeThatCannotSay_isCalledAsBefore() async throws {
        let served = Count()
        let hosted = try await HostedRouter(
            Self.router(echo: Self.louderEcho, served: served, olderBuild: true), loopName: "check-older")
        let (client, contracts) = client(of: hosted)
        // Unchecked, the call goes out: the callee's own reading of it decides, as before the check.
        let refused = await #expect(throws: ServiceError.self) { try await client.call(echo.echo, .init(text: "hi")) }
        #expect(
            refused?.code == .invalidInput,
            "the callee refused the missing field itself: \(String(describing: refused))")
        let found = try #require(contracts.found["echo"])
        #expect(found.state == .unchecked)
        #expect(found.findings.first?.text.contains("daemon.contractCheck") == true)
        #expect(contracts.exposition.contains("verticals_callee_contract_unchecked{callee=\"echo\"} 1"))
        client.close()
        await hosted.close()
    }

    @Test func aClientThatNeverAsks_sendsNoCheck() async throws {
        let served = Count()
        let hosted = try await HostedRouter(Self.router(echo: Self.louderEcho, served: served), loopName: "check-none")
        // Today's client without contracts: the call reaches the callee, which refuses what it lacks.
        let refused = await #expect(throws: ServiceError.self) {
            try await hosted.client.call(echo.echo, .init(text: "hi"))
        }
        #expect(refused?.code == .invalidInput)
        #expect(hosted.client.contracts == nil)
        #expect(served.value.load(ordering: .relaxed) == 0)
        await hosted.close()
    }

    @Test func tooManyOperationsAskedAbout_isInvalidInput() async throws {
        let served = Count()
        let hosted = try await HostedRouter(Self.router(echo: Self.sameEcho, served: served), loopName: "check-many")
        let names = (0...1024).map { "echo.op\($0)" }
        let refused = await #expect(throws: ServiceError.self) {
            try await Self.check(hosted, names, fingerprint: "sha256:00")
        }
        #expect(refused?.code == .invalidInput)
        await hosted.close()
    }

    @Test func theStatusLine_saysOnceWhatIsRefused_andOnceWhenItIsNoLonger() throws {
        let lines = Mutex<[String]>([])
        let contracts = CalleeContracts(caller: "front", callees: Callees(echo.echo, echo.fail)) { line in
            lines.withLock { $0.append(line) }
        }
        let expected = try #require(contracts.expected(for: "echo"))
        let same = Daemon.ContractCheck(service: "echo", fingerprint: expected.fingerprint, version: "0.2.0")
        _ = contracts.found(same, service: "echo", expected: expected)
        #expect(lines.withLock { $0 }.isEmpty, "nothing to say while nothing was ever refused")

        var served = Router(service: "echo")
        Self.louderEcho(&served, Count())
        served.on(echo.fail) { _, _ in Empty() }
        let louder = ContractFingerprint.description(of: "echo", served.operations)
        let breaking = Daemon.ContractCheck(
            service: "echo", fingerprint: ContractFingerprint.of(louder), version: "0.2.0", description: louder)
        let found = contracts.found(breaking, service: "echo", expected: expected)
        #expect(found.refused.keys.sorted() == ["echo.echo"])
        _ = contracts.found(breaking, service: "echo", expected: expected) // another connection, the same finding
        _ = contracts.found(same, service: "echo", expected: expected) // the callee is upgraded
        let said = lines.withLock { $0 }
        #expect(said.count == 2, "\(said)")
        #expect(said.first?.contains("refusing 1 operation of echo") == true)
        #expect(said.last?.contains("compatible") == true)
        #expect(contracts.found["echo"]?.state == .compatible)
    }
}
