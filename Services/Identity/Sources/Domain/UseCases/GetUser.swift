/// Looks up a user by id, for other verticals that need to know a user exists (notifications
/// checks a recipient) or show their name.
package struct GetUser: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// The user with `userID`; throws ``IdentityFailure/userNotFound(_:)``.
    package func execute(userID: String) async throws -> User {
        guard let user = try await world.users.user(id: userID) else { throw IdentityFailure.userNotFound(userID) }
        return user
    }
}
