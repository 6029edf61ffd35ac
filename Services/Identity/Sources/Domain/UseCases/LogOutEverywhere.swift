/// Ends every session of the token's user (a lost device, a shared computer): each of their
/// tokens stops working at once, everywhere, the one presented too.
package struct LogOutEverywhere: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Revokes every working session of `token`'s user and returns how many; throws
    /// ``IdentityFailure/invalidToken`` when the token does not authenticate.
    package func execute(token: String) async throws -> Int {
        let user = try await AuthenticateToken(world: world).execute(token: token).user
        let ended = try await world.sessions.revokeAll(userID: user.id, at: world.now())
        world.logger.info("user \(user.id) ended all \(ended) of their sessions")
        return ended
    }
}
