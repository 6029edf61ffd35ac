import IOInterface
import ServiceKit

/// Clinics' operations: each Input to its use case, each result to an Output, each
/// ``ClinicError`` to a ``ServiceError``.
public enum Endpoint {
    /// The router `svc-clinics` serves.
    public static func routes(world: World) -> Router {
        var router = Router(service: Clinics.self)
        router.on(Clinics.create) { input, _ in
            try await mapped {
                try await CreateClinic(world: world).execute(
                    token: input.token,
                    draft: ClinicDraft(
                        name: input.name, address: input.address,
                        location: Coordinate(latitude: input.latitude, longitude: input.longitude),
                        timeZone: input.timeZone, phone: input.phone, services: input.services, hours: input.hours))
            }
        }
        router.on(Clinics.get) { input, _ in
            try await mapped { try await GetClinics(world: world).execute(id: input.id) }
        }
        router.on(Clinics.getMany) { input, _ in
            try await mapped { Clinics.ClinicList(clinics: try await GetClinics(world: world).execute(ids: input.ids)) }
        }
        router.on(Clinics.search) { input, _ in
            try await mapped {
                try await SearchClinics(world: world).execute(name: input.name, limit: input.limit, cursor: input.cursor)
            }
        }
        router.on(Clinics.nearest) { input, _ in
            try await mapped {
                let found = try await FindNearestClinics(world: world).execute(
                    point: Coordinate(latitude: input.latitude, longitude: input.longitude), limit: input.limit,
                    service: input.service)
                return Clinics.NearbyClinics(
                    clinics: found.map { .init(clinic: $0.clinic, distanceMetres: $0.distanceMetres) })
            }
        }
        router.on(Clinics.checkSlot) { input, _ in
            try await mapped {
                try await CheckSlot(world: world).execute(
                    clinicID: input.clinicID, service: input.service, startsAt: input.startsAt, endsAt: input.endsAt)
            }
        }
        return router
    }

    /// Runs `body`, turning a ``ClinicError`` into the ``ServiceError`` a caller can act on.
    /// Errors of other verticals (already ``ServiceError``s) pass through unchanged.
    static func mapped<Output>(_ body: () async throws -> Output) async throws -> Output {
        do {
            return try await body()
        } catch let error as ClinicError {
            throw serviceError(error)
        }
    }

    /// The ``ServiceError`` for a ``ClinicError``.
    static func serviceError(_ error: ClinicError) -> ServiceError {
        switch error {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(field) \(reason).", details: [ErrorDetail("field", field)])
        case .notFound(let id):
            ServiceError(
                .notFound, "No clinic has id \"\(id)\"; find clinics with clinics.search or clinics.nearest.",
                details: [ErrorDetail("id", id)])
        case .notAdmin(let userID):
            ServiceError(
                .permissionDenied,
                "Only admins may add clinics; ask an admin to add it or to grant you the admin role.",
                details: [ErrorDetail("userID", userID)])
        }
    }
}
