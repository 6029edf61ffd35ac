import IOInterface
import ServiceKit

/// Records' operations: each Input to its use case, each result to an Output, each
/// ``RecordsError`` to a ``ServiceError``.
public enum Endpoint {
    /// The router `svc-records` serves.
    public static func routes(world: World) -> Router {
        var router = Router(service: Records.self)
        router.on(Records.addEntry) { input, _ in
            try await mapped { try await AddEntry(world: world).execute(input) }
        }
        router.on(Records.history) { input, _ in
            try await mapped { try await ReadHistory(world: world).execute(input) }
        }
        router.on(Records.nearbyPharmacies) { input, _ in
            try await mapped { try await FindNearbyPharmacies(world: world).execute(input) }
        }
        router.on(Records.deleteEntry) { input, _ in
            try await mapped {
                try await DeleteEntry(world: world).execute(input)
                return Empty()
            }
        }
        return router
    }

    /// Runs `body`, turning a ``RecordsError`` into the ``ServiceError`` a caller can act on.
    /// Errors of other verticals (already ``ServiceError``s) pass through unchanged.
    static func mapped<Output>(_ body: () async throws -> Output) async throws -> Output {
        do {
            return try await body()
        } catch let error as RecordsError {
            throw serviceError(error)
        }
    }

    /// The ``ServiceError`` for a ``RecordsError``.
    static func serviceError(_ error: RecordsError) -> ServiceError {
        switch error {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(field) \(reason).", details: [ErrorDetail("field", field)])
        case .notFound(let id):
            ServiceError(
                .notFound, "No entry has id \"\(id)\"; list your entries with records.history.",
                details: [ErrorDetail("id", id)])
        case .notOwner(let id):
            ServiceError(
                .permissionDenied, "Entry \"\(id)\" is not in your history; you can delete only your own entries.",
                details: [ErrorDetail("id", id)])
        }
    }
}
