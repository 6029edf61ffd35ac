import IOInterface
import Synchronization
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// A World's caller makes only the calls its vertical declares (issue 22 §3).
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

    @Test func theCheck_refusesAManifestThatLacksACall_andNamesIt() {
        let callees = Callees(Identity.self, Clinics.self)

        #expect(throws: Never.self) { try callees.check(environment: [:], vertical: "records") }
        #expect(throws: Never.self) {
            try callees.check(environment: ["VERTICALS_DEPENDS_ON": "identity, clinics"], vertical: "records")
        }
        do {
            try callees.check(environment: ["VERTICALS_DEPENDS_ON": "identity"], vertical: "records")
            Issue.record("accepted a manifest without clinics")
        } catch {
            #expect(error.missing == ["clinics"])
            #expect(error.description.contains("records lacks depends_on = [\"clinics\"]"), "\(error)")
        }
        #expect(callees.unusedDependencies(environment: ["VERTICALS_DEPENDS_ON": "identity,clinics,records"]) == ["records"])
        #expect(Callees.none.unusedDependencies(environment: ["VERTICALS_DEPENDS_ON": ""]).isEmpty)
    }

    @Test func callees_keepOneOfEachName_inOrder() {
        #expect(Callees(names: ["identity", "clinics", "identity"]).names == ["identity", "clinics"])
        #expect(Callees.none.description == "no vertical")
    }
}
