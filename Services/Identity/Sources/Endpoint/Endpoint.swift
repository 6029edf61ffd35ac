import IOInterface
import ServiceKit

/// Identity's routes: each operation of the ``Identity`` contract mapped to its use case,
/// the result to the contract's Output, and ``IdentityFailure`` to a typed `ServiceError`.
public enum Endpoint {
    /// The router `svc-identity` serves.
    public static func routes(world: World) -> Router {
        var router = Router(service: Identity.self)
        router.on(Identity.register) { input, _ in
            try await mapping {
                let user = try await RegisterUser(world: world).execute(
                    email: input.email, password: input.password, displayName: input.displayName)
                return Identity.Account(user)
            }
        }
        router.on(Identity.login) { input, _ in
            try await mapping {
                let session = try await LogIn(world: world).execute(email: input.email, password: input.password)
                return Identity.Session(token: session.token, expiresAt: session.expiresAt, userID: session.userID)
            }
        }
        router.on(Identity.authenticate) { input, _ in
            try await mapping {
                let session = try await AuthenticateToken(world: world).execute(token: input.token)
                return Identity.Principal(
                    userID: session.user.id, displayName: session.user.displayName, roles: session.user.roles,
                    expiresAt: session.expiresAt)
            }
        }
        router.on(Identity.logout) { input, _ in
            try await mapping {
                try await LogOut(world: world).execute(token: input.token)
                return Empty()
            }
        }
        router.on(Identity.getUser) { input, _ in
            try await mapping {
                let user = try await GetUser(world: world).execute(userID: input.userID)
                return Identity.UserProfile(userID: user.id, displayName: user.displayName)
            }
        }
        router.on(Identity.createAdmin) { input, context in
            try await mapping {
                let user = try await CreateFirstAdmin(world: world).execute(
                    email: input.email, password: input.password, displayName: input.displayName,
                    callerUID: context.peer?.uid)
                return Identity.Account(user)
            }
        }
        router.on(Identity.grantRole) { input, _ in
            try await mapping {
                let user = try await ChangeRole(world: world).execute(
                    .grant, role: input.role, email: input.email, token: input.token)
                return Identity.Account(user)
            }
        }
        router.on(Identity.revokeRole) { input, _ in
            try await mapping {
                let user = try await ChangeRole(world: world).execute(
                    .revoke, role: input.role, email: input.email, token: input.token)
                return Identity.Account(user)
            }
        }
        return router
    }

    /// Runs `body`, turning an ``IdentityFailure`` into the `ServiceError` a caller sees.
    /// Anything else propagates, and the host answers it as `internal` without leaking it.
    static func mapping<Output>(_ body: () async throws -> Output) async throws -> Output {
        do {
            return try await body()
        } catch let failure as IdentityFailure {
            throw ServiceError(failure)
        }
    }
}

extension ServiceError {
    /// The wire form of a domain refusal: a code to branch on, a message for a person.
    init(_ failure: IdentityFailure) {
        switch failure {
        case .invalid(let field, let reason):
            self.init(.invalidInput, "\(reason); correct \(field) and try again", details: [ErrorDetail("field", field)])
        case .emailTaken:
            self.init(
                .conflict, "an account with this e-mail address already exists: log in, or register another address",
                details: [ErrorDetail("field", "email")])
        case .wrongCredentials:
            self.init(.unauthenticated, "wrong e-mail address or password: check both and log in again")
        case .invalidToken:
            self.init(.unauthenticated, "the session token is not valid (unknown, expired or logged out): log in again")
        case .notLocalOperator:
            self.init(
                .permissionDenied,
                "only a local operator (root, or the user identity runs as) may create the first admin: "
                    + "run svc-supervisor admin create as that user")
        case .adminExists:
            self.init(.conflict, "an admin exists already: log in as an admin and use svc-supervisor admin grant EMAIL admin")
        case .notAdmin:
            self.init(.permissionDenied, "only an admin may change roles: log in as an admin (svc-supervisor login EMAIL)")
        case .lastAdmin:
            self.init(.conflict, "this is the last admin: grant admin to someone else before revoking it here")
        case .emailNotFound(let email):
            self.init(.notFound, "no account uses \"\(email)\"", details: [ErrorDetail("field", "email")])
        case .userNotFound(let id):
            self.init(.notFound, "no user has the id \"\(id)\"", details: [ErrorDetail("field", "userID")])
        }
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
