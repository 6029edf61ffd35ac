import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import RecordsService

@Suite("Records' endpoint")
struct EndpointTests {
    @Test func routes_serveEveryOperationOfTheContract() throws {
        let router = Endpoint.routes(world: try World.fixture())
        #expect(Set(router.operations.map(\.fullName)) == Set(Records.operations.map(\.fullName)))
    }

    @Test(arguments: [
        (RecordsError.invalid(field: "text", reason: "must not be empty"), ErrorCode.invalidInput, "field"),
        (RecordsError.notFound(id: "r_1"), ErrorCode.notFound, "id"),
        (RecordsError.notOwner(id: "r_1"), ErrorCode.permissionDenied, "id"),
    ])
    func domainErrors_becomeTypedServiceErrors_withDetails(error: RecordsError, code: ErrorCode, key: String) {
        let mapped = error.serviceError
        #expect(mapped.code == code)
        #expect(mapped.detail(key) != nil)
        #expect(mapped.message.hasSuffix("."))
    }

    @Test(arguments: [("250", Duration.milliseconds(250)), ("0", .seconds(1)), ("soon", .seconds(1))])
    func settings_readTheClinicNamesTimeout(value: String, timeout: Duration) {
        let settings = World.Settings.from(environment: ["RECORDS_CLINIC_NAMES_TIMEOUT_MS": value])
        #expect(settings.clinicNamesTimeout == timeout)
    }
}
