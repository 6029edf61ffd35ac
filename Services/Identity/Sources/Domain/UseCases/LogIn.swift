import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Exchanges an e-mail address and password for a new session token.
///
/// An unknown address and a wrong password fail the same way (``IdentityFailure/wrongCredentials``)
/// and take the same time: an unknown address still costs one Argon2id verification, against
/// a dummy hash. A hash made with older limits is replaced while the password is at hand.
package struct LogIn: Sendable {
    /// A session just opened: the token is shown to the client once and never stored.
    package struct Opened: Sendable, Equatable {
        /// The bearer token (base64url of 32 random bytes).
        package var token: String
        /// When it stops working.
        package var expiresAt: Timestamp
        /// The user it belongs to.
        package var userID: String
    }

    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Logs in on behalf of `caller` (``VerticalsServiceKit/RequestContext/caller``); throws
    /// ``IdentityFailure/wrongCredentials`` when the pair does not match an account,
    /// ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)`` when the account or the caller
    /// failed too often lately (``LoginThrottle``: checked before the password is hashed), and
    /// ``IdentityFailure/invalid(field:reason:)`` for a password longer than any registration
    /// accepts (it is never hashed: that depends on the input alone, so it tells nothing of accounts).
    package func execute(email rawEmail: String, password: String, caller: String? = nil) async throws -> Opened {
        try RegisterUser.requireBounded(password: password)
        let attempt = LoginThrottle.attempt(email: rawEmail, caller: caller)
        try world.loginThrottle.begin(attempt, at: world.now())
        let passwords = world.passwords
        let found: UserRepository.Credentials?
        let matches: Bool
        do {
            found = try await credentials(rawEmail)
            matches = try await Offload.run {
                guard let found else { return passwords.verifyNothing(password) }
                return passwords.verify(password, against: found.passwordHash)
            }
        } catch {
            // Not a guess that failed: the store or the hashing did.
            world.loginThrottle.ended(attempt, at: world.now())
            throw error
        }
        guard matches, let found else {
            world.loginThrottle.failed(attempt, at: world.now())
            throw IdentityFailure.wrongCredentials
        }
        world.loginThrottle.ended(attempt, at: world.now())

        if passwords.needsRehash(found.passwordHash) {
            let stronger = try await Offload.run { try passwords.hash(password) }
            try await world.users.updatePasswordHash(userID: found.user.id, to: stronger)
            world.logger.info("re-hashed the password of user \(found.user.id) with \(passwords.limits)")
        }

        let token = try SessionTokens.generate()
        let now = world.now()
        let expiresAt = now.adding(world.settings.sessionLifetime)
        try await world.sessions.insert(
            tokenHash: SessionTokens.storedHash(of: token), userID: found.user.id, createdAt: now, expiresAt: expiresAt)
        return Opened(token: token, expiresAt: expiresAt, userID: found.user.id)
    }

    /// The account of `rawEmail`, or `nil` for an unknown or malformed address (both are just "wrong").
    private func credentials(_ rawEmail: String) async throws -> UserRepository.Credentials? {
        guard let email = EmailAddress(rawEmail) else { return nil }
        return try await world.users.credentials(email: email)
    }
}
