import IOInterface

/// Finds clinics whose name contains a text, ignoring case.
public struct SearchClinics {
    let world: World

    /// The largest `limit` accepted by `search` and `nearest`.
    public static let maxLimit = 100

    /// Creates the use case.
    public init(world: World) {
        self.world = world
    }

    /// Up to `limit` clinics whose name contains `name` (any case), by name; an empty `name` matches all.
    public func execute(name: String, limit: Int) async throws -> [Clinics.Clinic] {
        try Self.check(limit: limit)
        guard name.count <= ClinicDraft.maxNameLength else {
            throw ClinicError.invalid(field: "name", reason: "must be at most \(ClinicDraft.maxNameLength) characters")
        }
        return try await world.clinics.clinics(nameContaining: name, limit: limit)
    }

    /// Throws unless `limit` is in 1...``maxLimit``.
    static func check(limit: Int) throws(ClinicError) {
        guard (1...maxLimit).contains(limit) else {
            throw .invalid(field: "limit", reason: "must be 1...\(maxLimit) (got \(limit))")
        }
    }
}
