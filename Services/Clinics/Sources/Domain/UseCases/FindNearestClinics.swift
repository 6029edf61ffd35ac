import IOInterface
import VerticalsContract

/// Lists the clinics closest to a point by great-circle distance, optionally only those
/// offering a service.
///
/// Every candidate's distance is computed (a full scan of id, latitude and longitude):
/// with a directory of tens or thousands of clinics that costs well under a millisecond
/// and is exact everywhere, near the poles and across the antimeridian included. A
/// bounding-box prefilter (an index on latitude, a box grown until it holds `limit`
/// clinics and covers the k-th distance) would pay off only with a far larger
/// directory or a radius to search within; correctness first.
package struct FindNearestClinics {
    let world: World

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// Up to `limit` clinics nearest `point`, closest first (ties by id), each with its distance in metres.
    package func execute(
        point: Coordinate, limit: Int, service: Clinics.Service?
    ) async throws -> [Clinics.NearbyClinic] {
        if let problem = point.problem { throw ClinicError.invalid(field: problem.field, reason: problem.reason) }
        try SearchClinics.check(limit: limit)
        let candidates = try await world.clinics.locations(offering: service)
        let nearest = NearestFirst.select(candidates, from: point, limit: limit)
        // In the order asked (ids are unique: the store's key), a clinic deleted between the two reads left out.
        let clinics = try await world.clinics.clinics(ids: nearest.map(\.id))
        var found: [Clinics.NearbyClinic] = []
        found.reserveCapacity(clinics.count)
        var next = 0
        for candidate in nearest where next < clinics.count && clinics[next].id == candidate.id {
            found.append(Clinics.NearbyClinic(clinic: clinics[next], distanceMetres: candidate.distance))
            next += 1
        }
        return found
    }
}
