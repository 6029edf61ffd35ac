import IOInterface

/// Resolves a session token to its user: what other verticals ask on every request.
public struct AuthenticateToken: Sendable {
    /// A session that works now, with its user.
    public struct Authenticated: Sendable, Equatable {
        /// The user.
        public var user: User
        /// When the session expires.
        public var expiresAt: Timestamp
    }

    let world: World

    /// A use case over `world`.
    public init(world: World) {
        self.world = world
    }

    /// The token's user; throws ``IdentityFailure/invalidToken`` when the token is unknown,
    /// expired or revoked (the caller is not told which).
    public func execute(token: String) async throws -> Authenticated {
        guard let session = try await world.sessions.session(tokenHash: SessionTokens.storedHash(of: token)),
            session.revokedAt == nil, world.now() < session.expiresAt
        else { throw IdentityFailure.invalidToken }
        return Authenticated(user: session.user, expiresAt: session.expiresAt)
    }
}
