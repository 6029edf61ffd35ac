import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Identity's routes: each operation of the ``Identity`` contract mapped to its use case and
/// the result to the contract's Output (an ``IdentityFailure`` reaches the caller as its
/// ``IdentityFailure/serviceError``, by the Router).
package enum Endpoint {
    /// The router `svc-identity` serves.
    package static func routes(world: World) -> Router {
        var router = Router(service: Identity.self)
        router.on(Identity.register) { input, context in
            let user = try await RegisterUser(world: world).execute(
                email: input.email, password: input.password, displayName: input.displayName, caller: context.caller)
            return Identity.Account(user)
        }
        router.on(Identity.login) { input, context in
            let session = try await LogIn(world: world).execute(
                email: input.email, password: input.password, caller: context.caller)
            return Identity.Session(token: session.token, expiresAt: session.expiresAt, userID: session.userID)
        }
        router.on(Identity.authenticate) { input, _ in
            let session = try await AuthenticateToken(world: world).execute(token: input.token)
            return Identity.Principal(
                userID: session.user.id, displayName: session.user.displayName, roles: session.user.roles,
                expiresAt: session.expiresAt)
        }
        router.on(Identity.logout) { input, _ in
            try await LogOut(world: world).execute(token: input.token)
            return Empty()
        }
        router.on(Identity.logoutEverywhere) { input, _ in
            let ended = try await LogOutEverywhere(world: world).execute(token: input.token)
            return Identity.SessionsEnded(count: ended)
        }
        router.on(Identity.changePassword) { input, context in
            let ended = try await ChangePassword(world: world).execute(
                token: input.token, oldPassword: input.oldPassword, newPassword: input.newPassword,
                caller: context.caller)
            return Identity.SessionsEnded(count: ended)
        }
        router.on(Identity.getUser) { input, _ in
            let user = try await GetUser(world: world).execute(userID: input.userID)
            return Identity.UserProfile(userID: user.id, displayName: user.displayName)
        }
        router.on(Identity.createAdmin) { input, context in
            let user = try await CreateFirstAdmin(world: world).execute(
                email: input.email, password: input.password,
                displayName: input.displayName
                    ?? String(input.email.split(separator: "@").first ?? Substring(input.email)),
                callerIsOperator: context.callerIsOperator)
            return Identity.Account(user)
        }
        router.on(Identity.grantRole) { input, _ in
            let user = try await ChangeRole(world: world).execute(
                .grant, role: input.role, email: input.email, token: input.token)
            return Identity.Account(user)
        }
        router.on(Identity.revokeRole) { input, _ in
            let user = try await ChangeRole(world: world).execute(
                .revoke, role: input.role, email: input.email, token: input.token)
            return Identity.Account(user)
        }
        // Who made an admin or changed a role, and whether it worked: an audit line each.
        router.auditedOperations.formUnion(
            [Identity.createAdmin.fullName, Identity.grantRole.fullName, Identity.revokeRole.fullName])
        return router
    }
}

extension Identity.Account {
    /// The contract's view of `user`.
    init(_ user: User) {
        self.init(
            userID: user.id, email: user.email.value, displayName: user.displayName, roles: user.roles,
            createdAt: user.createdAt)
    }
}
