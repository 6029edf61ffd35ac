import IOInterface
import Sessions
import VerticalsContract

/// Grants or revokes a role (`svc-supervisor admin grant|revoke`): only with an admin's
/// session token, so every change is made by a named admin and logged with their id.
package struct ChangeRole: Sendable {
    /// Which way the role goes.
    package enum Change: Sendable {
        /// Add the role.
        case grant
        /// Remove the role.
        case revoke
    }

    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Applies `change` of `role` to the account with `email` and returns it; throws
    /// ``IdentityFailure/invalidToken``, ``IdentityFailure/notAdmin``,
    /// ``IdentityFailure/emailNotFound(_:)``, ``IdentityFailure/lastAdmin`` or
    /// ``IdentityFailure/invalid(field:reason:)`` for an address or role this build does not know.
    package func execute(_ change: Change, role: Identity.Role, email rawEmail: String, token: String) async throws
        -> User
    {
        let caller = try await AuthenticateToken(world: world).execute(token: token).user
        try RoleCheck.require(.admin, among: caller.roles, otherwise: IdentityFailure.notAdmin)
        guard let email = EmailAddress(rawEmail) else {
            throw IdentityFailure.invalid(
                field: "email", reason: "\"\(rawEmail)\" is not an e-mail address like name@example.org")
        }
        guard Identity.Role.knownCases.contains(role) else {
            let known = Identity.Role.knownCases.map(\.wireName).joined(separator: ", ")
            throw IdentityFailure.invalid(field: "role", reason: "\"\(role.wireName)\" is not a role; roles: \(known)")
        }
        let user: User
        switch change {
        case .grant: user = try await world.users.grant(role, email: email)
        case .revoke: user = try await world.users.revoke(role, email: email)
        }
        let verb = change == .grant ? "granted" : "revoked"
        world.logger.notice("admin \(caller.id) \(verb) \(role.wireName) for user \(user.id)")
        return user
    }
}
