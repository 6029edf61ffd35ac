/// Revokes a session: its token stops working at once, everywhere.
package struct LogOut: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Revokes `token`; throws ``IdentityFailure/invalidToken`` when it is unknown, expired or
    /// already revoked (a token that does not authenticate cannot log out either).
    package func execute(token: String) async throws {
        let revoked = try await world.sessions.revoke(tokenHash: SessionTokens.storedHash(of: token), at: world.now())
        guard revoked else { throw IdentityFailure.invalidToken }
    }
}
