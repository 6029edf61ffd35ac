import VerticalsServiceKit

/// Changes a user's password: with a working session token and the current password, so that
/// neither a stolen token nor a password seen over someone's shoulder is enough alone. Every
/// session of the user ends with it, the one presented too: whoever held one logs in again.
///
/// A wrong current password is a failed login (``LoginThrottle``, for the account and the caller).
///
/// The change commits only if the presented session still works and the password's generation
/// is the one its current password was verified against, in one transaction: of two changes at
/// once, the second is decided against what the first left, where its session has ended, and
/// never overwrites the first.
package struct ChangePassword: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Sets `newPassword` and returns how many sessions ended; throws
    /// ``IdentityFailure/invalidToken``, ``IdentityFailure/wrongPassword``,
    /// ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)``,
    /// ``IdentityFailure/invalid(field:reason:)`` for a new password registration would refuse.
    /// A change that commits second finds its session ended by the first: ``IdentityFailure/invalidToken``.
    package func execute(token: String, oldPassword: String, newPassword: String, caller: String? = nil) async throws
        -> Int
    {
        try RegisterUser.requireBounded(password: oldPassword, field: "oldPassword")
        try RegisterUser.requireAcceptable(password: newPassword, field: "newPassword")
        let user = try await AuthenticateToken(world: world).execute(token: token).user
        let attempt = LoginThrottle.attempt(email: user.email.value, caller: caller)
        let stored = try await world.checkPassword(oldPassword, as: attempt, wrong: .wrongPassword) {
            try await world.users.credentials(userID: user.id)
        }
        let hash = try await world.hashPassword(newPassword)
        // Whatever raised the generation since it was read ended every session, this one's too,
        // which the same transaction finds first; a stale generation alone is refused as well.
        guard
            let ended = try await world.users.changePassword(
                of: stored, to: hash, askedBy: SessionTokens.storedHash(of: token), at: world.now())
        else { throw IdentityFailure.credentialsChanged }
        world.logger.notice("user \(user.id) changed their password; \(ended) sessions ended")
        return ended
    }
}
