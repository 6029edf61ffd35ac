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
        let caller = DeclaredCaller(base, callees: Callees(Clinics.self, Identity.self), vertical: "records")

        let error = await #expect(throws: ServiceError.self) { _ = try await caller.call(Clinics.get, .init(id: "c_1")) }

        #expect(error?.message == "noted")
        #expect(base.noted.withLock { $0 } == ["clinics.get"])
    }

    @Test func anUndeclaredCall_isRefusedBeforeTheCaller_namingTheDeclaration() async throws {
        let base = NotingCaller()
        let caller = DeclaredCaller(base, callees: Callees(Clinics.self), vertical: "records")

        let error = await #expect(throws: ServiceError.self) {
            _ = try await caller.call(Identity.getUser, .init(userID: "u_1"))
        }

        #expect(error?.code == .permissionDenied)
        #expect(error?.detail("service") == "identity")
        #expect(error?.message.contains("records calls identity.getUser, but its World declares no call to identity") == true)
        #expect(base.noted.withLock { $0 }.isEmpty, "refused before the caller")
    }

    @Test func theDisagreement_namesEachEdge_andNothingWhenTheyAgreeOrNothingIsSaid() {
        let callees = Callees(Identity.self, Clinics.self)

        #expect(callees.disagreement(environment: [:], vertical: "records") == nil, "no manager said depends_on")
        #expect(callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "identity, clinics"], vertical: "records") == nil)
        let missing = callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "identity"], vertical: "records")
        #expect(missing?.contains("its code calls clinics (World.calls), but the manifest's records lacks depends_on = [\"clinics\"]") == true, "\(missing ?? "nil")")
        let unused = callees.disagreement(environment: ["VERTICALS_DEPENDS_ON": "identity,clinics,notifications"], vertical: "records")
        #expect(unused?.contains("declares depends_on notifications, which the code never calls") == true, "\(unused ?? "nil")")
        #expect(callees.undeclaredDependencies(environment: ["VERTICALS_DEPENDS_ON": ""]) == ["identity", "clinics"])
        #expect(Callees.none.unusedDependencies(environment: ["VERTICALS_DEPENDS_ON": ""]).isEmpty)
    }

    @Test func callees_keepOneOfEachName_inOrder() {
        #expect(Callees(names: ["identity", "clinics", "identity"]).names == ["identity", "clinics"])
        #expect(Callees.none.description == "no vertical")
    }
}
