import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import RecordsService

@Suite("Nearby pharmacies, through clinics")
struct NearbyPharmaciesTests {
    @Test func nearbyPharmacies_asksClinicsForPharmaciesNearThePoint_andPassesTheAnswerThrough() async throws {
        let answer = Clinics.NearbyClinics(clinics: [.init(clinic: Directory.deansgate, distanceMetres: 412.5)])
        let caller = StubCaller().identity().on(Clinics.nearest) { (input: Clinics.NearestInput) in
            #expect(input == Clinics.NearestInput(latitude: 53.48, longitude: -2.24, limit: 5, service: .pharmacy))
            return answer
        }
        let world = try World.fixture(caller: caller)

        let found = try await FindNearbyPharmacies(world: world).execute(
            .init(token: Tokens.ada, latitude: 53.48, longitude: -2.24))

        #expect(found == answer)
    }

    @Test func nearbyPharmacies_ofAStrangerToIdentity_isUnauthenticated_withoutAskingClinics() async throws {
        let caller = StubCaller().identity().clinics()
        let world = try World.fixture(caller: caller)

        let error = await wireError {
            _ = try await FindNearbyPharmacies(world: world).execute(
                .init(token: Tokens.unknown, latitude: 0, longitude: 0))
        }

        #expect(error?.code == .unauthenticated)
        #expect(caller.calls == ["identity.authenticate"])
    }

    @Test(arguments: [ErrorCode.unavailable, .invalidInput])
    func nearbyPharmacies_passesClinicsErrorsThrough(code: ErrorCode) async throws {
        let world = try World.fixture(caller: StubCaller().identity().clinicsDown(code))

        let error = await wireError {
            _ = try await FindNearbyPharmacies(world: world).execute(
                .init(token: Tokens.ada, latitude: 0, longitude: 0))
        }

        #expect(error?.code == code)
    }
}
