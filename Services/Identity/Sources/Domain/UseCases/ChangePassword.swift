import VerticalsServiceKit

/// Changes a user's password: with a working session token and the current password, so that
/// neither a stolen token nor a password seen over someone's shoulder is enough alone. Every
/// session of the user ends with it, the one presented too: whoever held one logs in again.
///
/// A wrong current password is a failed login (``LoginThrottle``, for the account and the caller).
package struct ChangePassword: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Sets `newPassword` and returns how many sessions ended; throws
    /// ``IdentityFailure/invalidToken``, ``IdentityFailure/wrongPassword``,
    /// ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)`` or
    /// ``IdentityFailure/invalid(field:reason:)`` for a new password registration would refuse.
    package func execute(token: String, oldPassword: String, newPassword: String, caller: String? = nil) async throws -> Int {
        try RegisterUser.requireBounded(password: oldPassword, field: "oldPassword")
        try RegisterUser.requireAcceptable(password: newPassword, field: "newPassword")
        let user = try await AuthenticateToken(world: world).execute(token: token).user
        let attempt = LoginThrottle.attempt(email: user.email.value, caller: caller)
        try world.loginThrottle.begin(attempt, at: world.now())
        let passwords = world.passwords
        let matches: Bool
        do {
            let stored = try await world.users.passwordHash(userID: user.id)
            matches = try await Offload.run {
                guard let stored else { return passwords.verifyNothing(oldPassword) }
                return passwords.verify(oldPassword, against: stored)
            }
        } catch {
            world.loginThrottle.ended(attempt, at: world.now())
            throw error
        }
        guard matches else {
            world.loginThrottle.failed(attempt, at: world.now())
            throw IdentityFailure.wrongPassword
        }
        world.loginThrottle.ended(attempt, at: world.now())
        let hash = try await Offload.run { try passwords.hash(newPassword) }
        let ended = try await world.users.changePassword(userID: user.id, to: hash, at: world.now())
        world.logger.notice("user \(user.id) changed their password; \(ended) sessions ended")
        return ended
    }
}
