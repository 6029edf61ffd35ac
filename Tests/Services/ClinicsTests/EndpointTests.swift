import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import ClinicsService

@Suite("Clinics' endpoint")
struct EndpointTests {
    @Test func routes_serveEveryOperationOfTheContract() throws {
        let router = Endpoint.routes(world: try World.fixture())
        #expect(Set(router.operations.map(\.fullName)) == Set(Clinics.operations.map(\.fullName)))
    }

    @Test(arguments: [
        (ClinicError.invalid(field: "latitude", reason: "must be in -90...90"), ErrorCode.invalidInput, "field"),
        (ClinicError.notFound(id: "c_1"), ErrorCode.notFound, "id"),
        (ClinicError.notAdmin(userID: "u_1"), ErrorCode.permissionDenied, "userID"),
    ])
    func domainErrors_becomeTypedServiceErrors_withDetails(error: ClinicError, code: ErrorCode, key: String) {
        let mapped = error.serviceError
        #expect(mapped.code == code)
        #expect(mapped.detail(key) != nil)
        #expect(!mapped.retryable)
        #expect(mapped.message.hasSuffix("."))
    }

    @Test func serviceErrorsOfOtherVerticals_passThroughUnchanged() async {
        let original = ServiceError(.deadlineExceeded, "identity did not answer in time")
        let error = await wireError { throw original }
        #expect(error == original)
    }
}

@Suite("Inputs with enumeration cases the vertical does not know")
struct UnknownInputCaseTests {
    @Test func nearest_withAServiceClinicsDoesNotOffer_isInvalidInput_namingTheFieldAndTheCases() async throws {
        let router = Endpoint.routes(world: try World.fixture())
        let input = Clinics.NearestInput(latitude: 51.5, longitude: -0.12, service: .unknown("surgery"))
        let error = await #expect(throws: ServiceError.self) { try await router.serveInProcess(Clinics.nearest, input) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("field \"service\": \"surgery\" is not a case of clinics.Service") == true)
        #expect(error?.message.contains("gp, pharmacy") == true)
        #expect(error?.detail("field") == "service")
    }

    @Test func nearest_withAKnownService_isServed() async throws {
        let router = Endpoint.routes(world: try World.fixture())
        let input = Clinics.NearestInput(latitude: 51.5, longitude: -0.12, service: .dentist)
        _ = try await router.serveInProcess(Clinics.nearest, input)
    }
}
