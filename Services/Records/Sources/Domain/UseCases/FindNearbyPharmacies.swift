import IOInterface
import Sessions
import VerticalsContract
import VerticalsServiceKit

/// The pharmacies nearest a point, for a signed-in patient: `clinics.nearest(service: pharmacy)`.
package struct FindNearbyPharmacies {
    let world: World

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// Clinics' answer, passed through; so are its `invalidInput` (naming `latitude`,
    /// `longitude` or `limit`, the same fields as here) and `unavailable`.
    package func execute(_ input: Records.NearbyPharmaciesInput) async throws -> Clinics.NearbyClinics {
        _ = try await world.sessionCheck.principal(token: input.token)
        return try await world.caller.call(
            Clinics.nearest,
            .init(latitude: input.latitude, longitude: input.longitude, limit: input.limit, service: .pharmacy))
    }
}
