import IOInterface
import Sessions
import VerticalsContract
import VerticalsServiceKit

/// Deletes one of the caller's own entries.
package struct DeleteEntry {
    let world: World

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// Deletes entry `input.id` if the caller owns it: ``RecordsError/notFound(id:)`` when no
    /// entry has that id, ``RecordsError/notOwner(id:)`` when it is someone else's.
    package func execute(_ input: Records.DeleteEntryInput) async throws {
        let principal = try await world.sessionCheck.principal(token: input.token)
        switch try await world.entries.delete(id: input.id, ownedBy: principal.userID) {
        case .deleted: break
        case .missing: throw RecordsError.notFound(id: input.id)
        case .ownedBySomeoneElse: throw RecordsError.notOwner(id: input.id)
        }
    }
}
