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
    /// failed too often lately (``LoginThrottle``: checked before the password is hashed; a caller
    /// with as many logins in flight as it has failures left waits for one to end),
    /// ``IdentityFailure/credentialsChanged`` when the password changed, or every session of the
    /// account ended, after it was read (the session opens only if the password it was verified
    /// against is still the account's, in the session's own transaction), and
    /// ``IdentityFailure/invalid(field:reason:)`` for a password longer than any registration
    /// accepts (it is never hashed: that depends on the input alone, so it tells nothing of accounts).
    package func execute(email rawEmail: String, password: String, caller: String? = nil) async throws -> Opened {
        try RegisterUser.requireBounded(password: password)
        let attempt = LoginThrottle.attempt(email: rawEmail, caller: caller)
        let found = try await world.checkPassword(password, as: attempt, wrong: .wrongCredentials) {
            try await credentials(rawEmail)
        }
        try await rehashIfNeeded(found, password: password)

        let token = try SessionTokens.generate()
        let now = world.now()
        let expiresAt = now.adding(world.settings.sessionLifetime)
        let opened = try await world.sessions.insert(
            tokenHash: SessionTokens.storedHash(of: token), userID: found.user.id, generation: found.generation,
            createdAt: now, expiresAt: expiresAt)
        guard opened else {
            world.logger.info(
                "opened no session for user \(found.user.id): their password changed, or their sessions ended, meanwhile"
            )
            throw IdentityFailure.credentialsChanged
        }
        return Opened(token: token, expiresAt: expiresAt, userID: found.user.id)
    }

    /// Replaces `found`'s hash when it was made with older limits, while the password is at hand;
    /// only if neither hash nor generation changed since it was read, so a password change
    /// made meanwhile is never overwritten with the old password.
    private func rehashIfNeeded(_ found: UserRepository.Credentials, password: String) async throws {
        let passwords = world.passwords
        guard passwords.needsRehash(found.passwordHash) else { return }
        let stronger = try await world.hashPassword(password)
        if try await world.users.updatePasswordHash(of: found, to: stronger) {
            world.logger.info("re-hashed the password of user \(found.user.id) with \(passwords.limits)")
        }
    }

    /// The account of `rawEmail`, or `nil` for an unknown or malformed address (both are just "wrong").
    private func credentials(_ rawEmail: String) async throws -> UserRepository.Credentials? {
        guard let email = EmailAddress(rawEmail) else { return nil }
        return try await world.users.credentials(email: email)
    }
}
