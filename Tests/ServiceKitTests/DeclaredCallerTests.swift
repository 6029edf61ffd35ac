import IOInterface
import Synchronization
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// A World's caller makes only the calls its vertical declares.
struct DeclaredCallerTests {
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
        let caller = DeclaredCaller(base, callees: Callees(Clinics.get, Identity.authenticate), vertical: "records")

        let error = await #expect(throws: ServiceError.self) { _ = try await caller.call(Clinics.get, .init(id: "c_1")) }

        #expect(error?.message == "noted")
        #expect(base.noted.withLock { $0 } == ["clinics.get"])
    }

    @Test func anUndeclaredVertical_isRefusedBeforeTheCaller_namingTheEdge() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(Clinics.get), vertical: "records")

        let error = await #expect(throws: ServiceError.self) {
            _ = try await caller.call(Identity.getUser, .init(userID: "u_1"))
        }

        #expect(error?.code == .permissionDenied)
        #expect(error?.detail("service") == "identity")
        #expect(error?.detail("edge") == "records → identity.getUser")
        #expect(error?.detail("reason") == "undeclaredInCode")
        #expect(error?.message.contains("records calls identity.getUser, but its World declares no call to it") == true)
        #expect(base.noted.withLock { $0 }.isEmpty, "refused before the caller")
    }

    /// A declared vertical's undeclared operation is refused too: routes are per operation.
    @Test func anUndeclaredOperationOfADeclaredVertical_isRefusedBeforeTheCaller_namingTheEdge() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(Identity.authenticate, Clinics.get), vertical: "records")

        let error = await #expect(throws: ServiceError.self) {
            _ = try await caller.call(Identity.getUser, .init(userID: "u_1"))
        }

        #expect(error?.code == .permissionDenied)
        #expect(error?.detail("edge") == "records → identity.getUser")
        #expect(error?.message.contains("declare it in World.calls and the manifest's depends_on = [\"identity.getUser\"]") == true)
        #expect(base.noted.withLock { $0 }.isEmpty, "refused before the caller")
    }

    /// A whole vertical (a product's convenience) covers its operations, but never an operator-only one.
    @Test func aWholeVertical_coversItsOperations_butNoOperatorOnlyOne() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(Identity.self), vertical: "clinics")

        _ = await #expect(throws: ServiceError.self) { _ = try await caller.call(Identity.getUser, .init(userID: "u_1")) }
        let refused = await #expect(throws: ServiceError.self) {
            _ = try await caller.call(Identity.grantRole, .init(token: "t", email: "a@b.c", role: .admin))
        }

        #expect(base.noted.withLock { $0 } == ["identity.getUser"])
        #expect(refused?.detail("reason") == "operatorOnly")
        #expect(refused?.message.contains("clinics calls identity.grantRole, which only the operator may call") == true)
    }

    @Test func theDisagreement_namesEachEdge_andNothingWhenTheyAgreeOrNothingIsSaid() {
        let callees = Callees(Identity.authenticate, Clinics.get)

        #expect(callees.disagreement(environment: [:], vertical: "records") == nil, "no manager said depends_on")
        #expect(callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "identity.authenticate, clinics.get"], vertical: "records") == nil)
        #expect(callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "identity.authenticate,clinics"], vertical: "records")?
            .contains("declares depends_on clinics, which the code never calls") == true, "a whole vertical grants more than the code calls")
        let missing = callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "identity.authenticate"], vertical: "records")
        #expect(missing?.contains("its code calls clinics.get (World.calls), but the manifest's records lacks depends_on = [\"clinics.get\"]") == true, "\(missing ?? "nil")")
        let unused = callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "identity.authenticate,clinics.get,identity.getUser"], vertical: "records")
        #expect(unused?.contains("declares depends_on identity.getUser, which the code never calls") == true, "\(unused ?? "nil")")
        #expect(callees.undeclaredDependencies(environment: ["VERTICALS_DEPENDS_ON": ""]) == ["identity.authenticate", "clinics.get"])
        #expect(Callees(names: ["identity"]).undeclaredDependencies(environment: ["VERTICALS_DEPENDS_ON": "identity.authenticate"]) == ["identity"])
        #expect(Callees.none.unusedDependencies(environment: ["VERTICALS_DEPENDS_ON": ""]).isEmpty)
    }

    @Test func callees_keepOneOfEachEntry_inOrder_andTheirVerticals() {
        let callees = Callees(names: ["identity.authenticate", "clinics.get", "identity.authenticate", "identity.getUser"])
        #expect(callees.entries == ["identity.authenticate", "clinics.get", "identity.getUser"])
        #expect(callees.names == ["identity", "clinics"])
        #expect(callees.operations(of: "identity") == ["authenticate", "getUser"])
        #expect(Callees(Identity.self).operations(of: "identity") == nil)
        #expect(Callees(Identity.authenticate, Clinics.checkSlot).entries == ["identity.authenticate", "clinics.checkSlot"])
        #expect(Callees.none.description == "no operation")
    }
}
