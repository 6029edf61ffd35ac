import IOInterface
import VerticalsContract
import VerticalsWire

/// Resolves a session token to its user: what other verticals ask on every request.
package struct AuthenticateToken: Sendable {
    /// A session that works now, with its user.
    package struct Authenticated: Sendable, Equatable {
        /// The user.
        package var user: User
        /// When the session expires.
        package var expiresAt: Timestamp
    }

    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// The token's user; throws ``IdentityFailure/invalidToken`` when the token is unknown,
    /// expired or revoked (the caller is not told which).
    package func execute(token: String) async throws -> Authenticated {
        guard let session = try await world.sessions.session(tokenHash: SessionTokens.storedHash(of: token)),
            session.revokedAt == nil, world.now() < session.expiresAt
        else { throw IdentityFailure.invalidToken }
        return Authenticated(user: session.user, expiresAt: session.expiresAt)
    }
}
