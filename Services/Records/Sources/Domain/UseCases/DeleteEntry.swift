import IOInterface
import ServiceKit

/// Deletes one of the caller's own entries.
public struct DeleteEntry {
    let world: World

    /// Creates the use case.
    public init(world: World) {
        self.world = world
    }

    /// Deletes entry `input.id` if the caller owns it: ``RecordsError/notFound(id:)`` when no
    /// entry has that id, ``RecordsError/notOwner(id:)`` when it is someone else's.
    public func execute(_ input: Records.DeleteEntryInput) async throws {
        let principal = try await Authenticate(caller: world.caller).execute(input.token)
        switch try await world.entries.delete(id: input.id, ownedBy: principal.userID) {
        case .deleted: break
        case .missing: throw RecordsError.notFound(id: input.id)
        case .ownedBySomeoneElse: throw RecordsError.notOwner(id: input.id)
        }
    }
}
