import IOInterface
import VerticalsContract

/// Looks clinics up by id: one (``execute(id:)``) or many at once (``execute(ids:)``).
package struct GetClinics {
    let world: World

    /// The most ids one `getMany` may ask for.
    package static let maxIDs = 500

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// The clinic with `id`, or ``ClinicError/notFound(id:)``.
    package func execute(id: String) async throws -> Clinics.Clinic {
        guard let clinic = try await world.clinics.clinic(id: id) else { throw ClinicError.notFound(id: id) }
        return clinic
    }

    /// The clinics with `ids` in the order asked; unknown ids are left out, duplicates answered once.
    package func execute(ids: [String]) async throws -> [Clinics.Clinic] {
        guard ids.count <= Self.maxIDs else {
            throw ClinicError.invalid(
                field: "ids", reason: "asks for \(ids.count) clinics; ask for at most \(Self.maxIDs) at once")
        }
        return try await world.clinics.clinics(ids: ids)
    }
}
