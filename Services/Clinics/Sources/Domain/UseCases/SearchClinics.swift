import IOInterface
import VerticalsContract
import VerticalsStorage

/// Finds clinics whose name contains a text, ignoring case.
package struct SearchClinics {
    let world: World

    /// The largest `limit` accepted by `search` and `nearest`.
    package static let maxLimit = 100

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// One page of the clinics whose name contains `name` (any case), by name: up to `limit`
    /// after `cursor` (from the first without one), and the next page's cursor. An empty `name`
    /// matches all. A cursor made for another `name` is refused (`invalid(field: "cursor")`).
    package func execute(name: String, limit: Int, cursor: String? = nil) async throws -> Clinics.ClinicList {
        try Self.check(limit: limit)
        guard name.utf8.count <= ClinicDraft.maxTextBytes, name.count <= ClinicDraft.maxNameLength else {
            throw ClinicError.invalid(field: "name", reason: "must be at most \(ClinicDraft.maxNameLength) characters")
        }
        let scope = "clinics.search|\(ClinicRepository.folded(name))"
        let after = try PageCursor.decode(cursor, scope: scope, keyCount: 2) {
            ClinicError.invalid(field: "cursor", reason: $0)
        }
        return try await world.clinics.clinics(nameContaining: name, limit: limit, after: after, scope: scope)
    }

    /// Throws unless `limit` is in 1...``maxLimit``.
    static func check(limit: Int) throws(ClinicError) {
        guard (1...maxLimit).contains(limit) else {
            throw .invalid(field: "limit", reason: "must be 1...\(maxLimit) (got \(limit))")
        }
    }
}
