import Synchronization
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// A World's caller makes only the calls its vertical declares: `front` calling two `vt-testd`
/// contracts, `echo` and `relay`.
struct DeclaredCallerTests {
    let echo = TestEcho(service: "echo")
    let relay = TestEcho(service: "relay")

    /// An operator-only operation of `echo`, which no vertical may call.
    let wipe = Operation<Empty, Empty>("echo", "wipe", summary: "An operator-only operation.", marks: [.operatorOnly])

    /// A caller that notes each call it is asked to make and answers none (`unavailable`).
    final class NotingCaller: ServiceCalling {
        let noted = Mutex<[String]>([])

        func call<Input, Output>(
            _ operation: VerticalsContract.Operation<Input, Output>, _ input: Input, timeout: Duration?
        ) async throws(ServiceError) -> Output {
            noted.withLock { $0.append(operation.fullName) }
            throw ServiceError(.unavailable, "noted")
        }
    }

    @Test func aDeclaredCall_reachesTheCaller() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(echo.echo, relay.relay), vertical: "front")

        let error = await #expect(throws: ServiceError.self) { _ = try await caller.call(echo.echo, .init(text: "hi")) }

        #expect(error?.message == "noted")
        #expect(base.noted.withLock { $0 } == ["echo.echo"])
    }

    @Test func anUndeclaredVertical_isRefusedBeforeTheCaller_namingTheEdge() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(echo.echo), vertical: "front")

        let error = await #expect(throws: ServiceError.self) {
            _ = try await caller.call(relay.relay, .init(target: "echo", text: "hi"))
        }

        #expect(error?.code == .permissionDenied)
        #expect(error?.detail("service") == "relay")
        #expect(error?.detail("edge") == "front → relay.relay")
        #expect(error?.detail("reason") == "undeclaredInCode")
        #expect(error?.message.contains("front calls relay.relay, but its World declares no call to it") == true)
        #expect(base.noted.withLock { $0 }.isEmpty, "refused before the caller")
    }

    /// A declared vertical's undeclared operation is refused too: routes are per operation.
    @Test func anUndeclaredOperationOfADeclaredVertical_isRefusedBeforeTheCaller_namingTheEdge() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(relay.relay, echo.echo), vertical: "front")

        let error = await #expect(throws: ServiceError.self) {
            _ = try await caller.call(echo.fail, .init(code: .notFound, message: "no such thing"))
        }

        #expect(error?.code == .permissionDenied)
        #expect(error?.detail("edge") == "front → echo.fail")
        #expect(
            error?.message.contains("declare it in World.calls and the manifest's depends_on = [\"echo.fail\"]") == true
        )
        #expect(base.noted.withLock { $0 }.isEmpty, "refused before the caller")
    }

    /// A whole vertical (a product's convenience) covers its operations, but never an operator-only one.
    @Test func aWholeVertical_coversItsOperations_butNoOperatorOnlyOne() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(names: ["echo"]), vertical: "front")

        _ = await #expect(throws: ServiceError.self) { _ = try await caller.call(echo.echo, .init(text: "hi")) }
        let refused = await #expect(throws: ServiceError.self) {
            _ = try await caller.call(wipe, Empty())
        }

        #expect(base.noted.withLock { $0 } == ["echo.echo"])
        #expect(refused?.detail("reason") == "operatorOnly")
        #expect(refused?.message.contains("front calls echo.wipe, which only the operator may call") == true)
    }

    @Test func theDisagreement_namesEachEdge_andNothingWhenTheyAgreeOrNothingIsSaid() {
        let callees = Callees(relay.relay, echo.echo)

        #expect(callees.disagreement(environment: [:], vertical: "front") == nil, "no manager said depends_on")
        #expect(
            callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "relay.relay, echo.echo"], vertical: "front")
                == nil)
        #expect(
            callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "relay.relay,echo"], vertical: "front")?
                .contains("declares depends_on echo, which the code never calls") == true,
            "a whole vertical grants more than the code calls")
        let missing = callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "relay.relay"], vertical: "front")
        #expect(
            missing?.contains(
                "its code calls echo.echo (World.calls), but the manifest's front lacks depends_on = [\"echo.echo\"]")
                == true, "\(missing ?? "nil")")
        let unused = callees.disagreement(
            environment: ["VERTICALS_DEPENDS_ON": "relay.relay,echo.echo,relay.fail"], vertical: "front")
        #expect(
            unused?.contains("declares depends_on relay.fail, which the code never calls") == true, "\(unused ?? "nil")"
        )
        #expect(
            callees.undeclaredDependencies(environment: ["VERTICALS_DEPENDS_ON": ""]) == ["relay.relay", "echo.echo"])
        #expect(
            Callees(names: ["relay"]).undeclaredDependencies(environment: ["VERTICALS_DEPENDS_ON": "relay.relay"]) == [
                "relay"
            ])
        #expect(Callees.none.unusedDependencies(environment: ["VERTICALS_DEPENDS_ON": ""]).isEmpty)
    }

    @Test func callees_keepOneOfEachEntry_inOrder_andTheirVerticals() {
        let callees = Callees(names: ["relay.relay", "echo.echo", "relay.relay", "relay.fail"])
        #expect(callees.entries == ["relay.relay", "echo.echo", "relay.fail"])
        #expect(callees.names == ["relay", "echo"])
        #expect(callees.operations(of: "relay") == ["relay", "fail"])
        #expect(Callees(names: ["relay"]).operations(of: "relay") == nil)
        #expect(Callees(relay.relay, echo.fail).entries == ["relay.relay", "echo.fail"])
        #expect(Callees.none.description == "no operation")
    }
}
