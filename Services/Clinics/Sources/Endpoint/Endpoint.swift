import IOInterface
import VerticalsContract
import VerticalsServiceKit

/// Clinics' operations: each Input to its use case, each result to an Output (a ``ClinicError``
/// reaches the caller as its ``ClinicError/serviceError``).
package enum Endpoint {
    /// The router `svc-clinics` serves.
    package static func routes(world: World) -> Router {
        var router = Router(service: Clinics.self)
        router.on(Clinics.create) { input, _ in
            try await CreateClinic(world: world).execute(
                token: input.token,
                draft: ClinicDraft(
                    name: input.name, address: input.address,
                    location: Coordinate(latitude: input.latitude, longitude: input.longitude),
                    timeZone: input.timeZone, phone: input.phone, services: input.services, hours: input.hours))
        }
        router.on(Clinics.get) { input, _ in
            try await GetClinics(world: world).execute(id: input.id)
        }
        router.on(Clinics.getMany) { input, _ in
            Clinics.ClinicList(clinics: try await GetClinics(world: world).execute(ids: input.ids))
        }
        router.on(Clinics.search) { input, _ in
            try await SearchClinics(world: world).execute(name: input.name, limit: input.limit, cursor: input.cursor)
        }
        router.on(Clinics.nearest) { input, _ in
            Clinics.NearbyClinics(
                clinics: try await FindNearestClinics(world: world).execute(
                    point: Coordinate(latitude: input.latitude, longitude: input.longitude), limit: input.limit,
                    service: input.service))
        }
        router.on(Clinics.checkSlot) { input, _ in
            try await CheckSlot(world: world).execute(
                clinicID: input.clinicID, service: input.service, startsAt: input.startsAt, endsAt: input.endsAt)
        }
        return router
    }
}
