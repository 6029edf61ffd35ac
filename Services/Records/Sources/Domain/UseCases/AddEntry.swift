import IOInterface
import Sessions
import VerticalsContract
import VerticalsServiceKit

/// Adds an entry to the caller's own history.
package struct AddEntry {
    let world: World

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// Checks the token, the entry and (when one is named) that the clinic exists, then stores the entry.
    ///
    /// Nothing is stored unless every check passed: when identity or clinics is down the
    /// caller gets their `unavailable` and may retry.
    package func execute(_ input: Records.AddEntryInput) async throws -> Records.Entry {
        let principal = try await world.sessionCheck.principal(token: input.token)
        try EntryRules.check(input)
        var clinicName: String?
        if let clinicID = input.clinicID { clinicName = try await name(ofClinic: clinicID) }
        let entry = Records.Entry(
            id: world.newID(), userID: principal.userID, kind: input.kind, text: input.text, clinicID: input.clinicID,
            clinicName: clinicName, createdAt: world.now())
        try await world.entries.insert(entry)
        return entry
    }

    /// The name of clinic `id`; `invalidInput` naming `clinicID` when clinics knows no such clinic.
    private func name(ofClinic id: String) async throws -> String {
        do {
            return try await world.caller.call(Clinics.get, .init(id: id)).name
        } catch {
            guard error.code == .notFound else { throw error }
            throw RecordsError.invalid(
                field: "clinicID", reason: "names no clinic (\"\(id)\"); find one with clinics.search")
        }
    }
}
