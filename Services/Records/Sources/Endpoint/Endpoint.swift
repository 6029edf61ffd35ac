import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Records' operations: each Input to its use case, each result to an Output (a ``RecordsError``
/// reaches the caller as its ``RecordsError/serviceError``).
package enum Endpoint {
    /// The router `svc-records` serves.
    package static func routes(world: World) -> Router {
        var router = Router(service: Records.self)
        router.on(Records.addEntry) { input, _ in
            try await AddEntry(world: world).execute(input)
        }
        router.on(Records.history) { input, _ in
            try await ReadHistory(world: world).execute(input)
        }
        router.on(Records.nearbyPharmacies) { input, _ in
            try await FindNearbyPharmacies(world: world).execute(input)
        }
        router.on(Records.deleteEntry) { input, _ in
            try await DeleteEntry(world: world).execute(input)
            return Empty()
        }
        return router
    }
}
